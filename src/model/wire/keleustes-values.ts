// The closed values schema of the keleustes v1alpha1 ArmadaChart CRD, extracted by
// scripts/extract-keleustes-values-schema.js. Imported (not read from disk) so that the build
// carries it; required lazily by the keleustes writer, the only code that needs it.
import schema from './keleustes-values-schema.json';
import type { StructuralSchema } from './structural';

export const KELEUSTES_VALUES_SCHEMA = schema as StructuralSchema;

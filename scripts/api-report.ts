/**
 * The API report: every name each entry point of the package exports, with its kind and its
 * declaration as a TypeScript user sees it (the emitted .d.ts, doc comments and private members
 * left out), in api/armada-cdk.api.md. The report is committed so that a change to the public
 * surface shows up in review; a test fails when the report is stale.
 *
 *   npx ts-node scripts/api-report.ts          # rewrite the report
 *   npx ts-node scripts/api-report.ts --check  # exit 1 when the committed report differs
 *
 * It also finds the "forgotten exports": a type that appears in a public declaration (a property,
 * a parameter, a base class) but that no entry point exports, so a user cannot name it.
 *
 * The entry points are read from package.json `exports`, so a new subpath is reported as soon as
 * it is published.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

/** Where the report is written, relative to the project root. */
export const REPORT_FILE = path.join('api', 'armada-cdk.api.md');

/** One published entry point: the import specifier and its source file. */
export interface EntryPoint {
  readonly specifier: string;
  readonly file: string;
}

/** An exported name that appears in the report. */
export interface ExportedName {
  readonly entry: string;
  readonly name: string;
  /** `class`, `interface`, `const`...; `(type only)` after a value exported for its type alone. */
  readonly kind: string;
}

/** The report, and the problems found while building it. */
export interface ApiReport {
  readonly text: string;
  readonly names: readonly ExportedName[];
  /** One line per type used in a public declaration that no entry point exports. */
  readonly forgottenExports: readonly string[];
}

/** The entry points published in package.json `exports` (their `types` condition, mapped back to src). */
export function entryPoints(root: string): EntryPoint[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const out: EntryPoint[] = [];
  for (const [subpath, target] of Object.entries<any>(pkg.exports ?? {})) {
    const types: unknown = typeof target === 'object' && target !== null ? target.types : undefined;
    if (typeof types !== 'string') continue;
    const match = /^\.\/lib\/(src\/.*)\.d\.ts$/.exec(types);
    if (!match) throw new Error(`package.json exports["${subpath}"].types is ${types}, expected ./lib/src/<path>.d.ts`);
    out.push({ specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, '')}`, file: `${match[1]}.ts` });
  }
  return out;
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configFile = path.join(root, 'tsconfig.build.json');
  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configFile);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    declaration: true,
    emitDeclarationOnly: true,
    noEmit: false,
    incremental: false,
    composite: false,
    sourceMap: false,
    declarationMap: false,
  };
  delete options.tsBuildInfoFile;
  return options;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

const isPrivate = (member: ts.ClassElement): boolean =>
  (ts.canHaveModifiers(member) && (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) ||
  (member.name !== undefined && ts.isPrivateIdentifier(member.name));

/** The statement without what a user cannot reach: private members of a class. */
function publicShape(statement: ts.Statement): ts.Statement {
  if (!ts.isClassDeclaration(statement)) return statement;
  return ts.factory.updateClassDeclaration(
    statement,
    statement.modifiers,
    statement.name,
    statement.typeParameters,
    statement.heritageClauses,
    statement.members.filter((m) => !isPrivate(m)),
  );
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  const name = (statement as { name?: ts.Node | undefined }).name;
  return name && ts.isIdentifier(name) ? [name.text] : [];
}

function kindOf(statement: ts.Statement): string {
  if (ts.isClassDeclaration(statement)) return (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.AbstractKeyword) ? 'abstract class' : 'class';
  if (ts.isInterfaceDeclaration(statement)) return 'interface';
  if (ts.isTypeAliasDeclaration(statement)) return 'type';
  if (ts.isEnumDeclaration(statement)) return 'enum';
  if (ts.isFunctionDeclaration(statement)) return 'function';
  if (ts.isModuleDeclaration(statement)) return 'namespace';
  if (ts.isVariableStatement(statement)) return statement.declarationList.flags & ts.NodeFlags.Const ? 'const' : 'let';
  return ts.SyntaxKind[statement.kind];
}

/** A declaration file emitted for one source file, parsed. */
interface EmittedFile {
  readonly source: string;
  readonly dts: ts.SourceFile;
}

/** Builds the report for the project at `root`. */
export function apiReport(root: string): ApiReport {
  const entries = entryPoints(root);
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const program = ts.createProgram({ rootNames: entries.map((e) => path.join(root, e.file)), options, host });
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors.slice(0, 10), host));

  const emitted = new Map<string, EmittedFile>();
  const emit = program.emit(
    undefined,
    (fileName, text, _bom, _onError, sourceFiles) => {
      const source = sourceFiles?.[0]?.fileName;
      if (source && fileName.endsWith('.d.ts')) emitted.set(path.normalize(source), { source, dts: ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true) });
    },
    undefined,
    true,
  );
  if (emit.diagnostics.length > 0) throw new Error(ts.formatDiagnostics(emit.diagnostics, host));

  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const keyOf = (symbol: ts.Symbol): string | undefined => {
    const decl = symbol.declarations?.[0];
    return decl ? `${path.normalize(decl.getSourceFile().fileName)}#${symbol.name}` : undefined;
  };
  const exportsOf = (file: string): ts.Symbol[] => {
    const sourceFile = program.getSourceFile(file);
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    return moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  };
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const inProject = (file: string) => !relative(file).startsWith('..') && !relative(file).includes('node_modules/');

  const publicKeys = new Set<string>();
  for (const entry of entries) for (const symbol of exportsOf(path.join(root, entry.file))) {
    const key = keyOf(resolve(symbol));
    if (key) publicKeys.add(key);
  }

  /** The key of the declaration a name in an emitted file refers to, when it is one of the project's. */
  const originOf = (file: EmittedFile, name: string, member: string | undefined): string | undefined => {
    for (const statement of file.dts.statements) {
      if (declaredNames(statement).includes(name)) return `${path.normalize(file.source)}#${name}`;
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.importClause) continue;
      const clause = statement.importClause;
      const bindings = clause.namedBindings;
      let imported: string | undefined;
      if (clause.name?.text === name) imported = 'default';
      else if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === name) imported = member;
      else if (bindings && ts.isNamedImports(bindings)) {
        const element = bindings.elements.find((e) => e.name.text === name);
        if (element) imported = (element.propertyName ?? element.name).text;
      }
      if (imported === undefined) continue;
      return exportedKey(statement.moduleSpecifier.text, file.source, imported);
    }
    return undefined;
  };
  const exportedKey = (specifier: string, fromFile: string, name: string): string | undefined => {
    const resolved = ts.resolveModuleName(specifier, fromFile, options, host).resolvedModule;
    if (!resolved || !inProject(resolved.resolvedFileName)) return undefined;
    const symbol = exportsOf(resolved.resolvedFileName).find((s) => s.name === name);
    return symbol ? keyOf(resolve(symbol)) : `${path.normalize(resolved.resolvedFileName)}#${name}`;
  };

  const forgotten = new Set<string>();
  const names: ExportedName[] = [];
  const sections: string[] = [];
  for (const entry of entries) {
    const summary: string[] = [];
    const bodies: string[] = [];
    const symbols = exportsOf(path.join(root, entry.file)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const symbol of symbols) {
      const target = resolve(symbol);
      const files = [...new Set((target.declarations ?? []).map((d) => path.normalize(d.getSourceFile().fileName)))];
      const statements: { file: EmittedFile; statement: ts.Statement }[] = [];
      for (const source of files) {
        const file = emitted.get(source);
        if (!file) throw new Error(`${entry.specifier} exports ${symbol.name} from ${relative(source)}, which is not a project source file`);
        for (const statement of file.dts.statements) if (declaredNames(statement).includes(target.name)) statements.push({ file, statement: publicShape(statement) });
      }
      if (statements.length === 0) throw new Error(`${entry.specifier}: no declaration of ${symbol.name} in the emitted declarations`);
      const typeOnly = (symbol.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d));
      const kind = [...new Set(statements.map((s) => kindOf(s.statement)))].join(' + ') + (typeOnly && target.flags & ts.SymbolFlags.Value ? ' (type only)' : '');
      names.push({ entry: entry.specifier, name: symbol.name, kind });
      const alias = target.name === symbol.name ? '' : ` (declared as ${target.name})`;
      summary.push(`- ${symbol.name}: ${kind}${alias}`);
      const printed = statements.map(({ file, statement }) => printer.printNode(ts.EmitHint.Unspecified, statement, file.dts)).join('\n');
      bodies.push(`### ${symbol.name}${alias}\n\n${kind}, from ${[...new Set(statements.map((s) => relative(s.file.source)))].join(', ')}\n\n\`\`\`ts\n${printed}\n\`\`\``);

      for (const { file, statement } of statements) {
        const visit = (node: ts.Node): void => {
          let name: string | undefined;
          let member: string | undefined;
          if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
            let ref: ts.Node = ts.isTypeReferenceNode(node) ? node.typeName : ts.isTypeQueryNode(node) ? node.exprName : node.expression;
            const parts: string[] = [];
            while (ts.isQualifiedName(ref) || ts.isPropertyAccessExpression(ref)) {
              parts.unshift(ts.isQualifiedName(ref) ? ref.right.text : ref.name.text);
              ref = ts.isQualifiedName(ref) ? ref.left : ref.expression;
            }
            if (ts.isIdentifier(ref)) [name, member] = [ref.text, parts[0]];
          }
          if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal) && node.qualifier) {
            let q: ts.EntityName = node.qualifier;
            while (ts.isQualifiedName(q)) q = q.left;
            const key = exportedKey(node.argument.literal.text, file.source, q.text);
            if (key && !publicKeys.has(key)) forgotten.add(`${entry.specifier} ${symbol.name} uses ${q.text} (${relative(key.split('#')[0])}), which no entry point exports`);
          }
          if (name !== undefined && name !== target.name) {
            const key = originOf(file, name, member);
            if (key && !publicKeys.has(key)) forgotten.add(`${entry.specifier} ${symbol.name} uses ${key.split('#')[1]} (${relative(key.split('#')[0])}), which no entry point exports`);
          }
          ts.forEachChild(node, visit);
        };
        visit(statement);
      }
    }
    sections.push(`## ${entry.specifier}\n\nFrom ${entry.file}: ${symbols.length} names.\n\n${summary.join('\n')}\n\n${bodies.join('\n\n')}`);
  }

  const text = [
    '# API report: armada-cdk',
    '',
    'Every name the package exports, per entry point, with its declaration as a TypeScript user sees it',
    '(doc comments and private members left out). Generated by scripts/api-report.ts; a test fails when',
    'it is stale. Regenerate it with `UPDATE_API_REPORT=1 npx jest test/api` and review the difference.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
  return { text, names, forgottenExports: [...forgotten].sort() };
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const report = apiReport(root);
  const file = path.join(root, REPORT_FILE);
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== report.text) {
      process.stderr.write(`${REPORT_FILE} is stale: run npx ts-node scripts/api-report.ts and review the difference\n`);
      process.exitCode = 1;
    }
  } else {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, report.text);
  }
  for (const line of report.forgottenExports) process.stderr.write(`forgotten export: ${line}\n`);
  if (report.forgottenExports.length > 0) process.exitCode = 1;
}

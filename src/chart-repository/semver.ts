/**
 * Helm's SemVer: what Masterminds' `NewVersion` accepts (`1`, `1.2`, `v1.2.3-rc.1+b`), which Helm's
 * chart validation and source-controller both apply to a chart's version. A module of its own so
 * that the subchart check does not load the packaging code to use it.
 */
export const HELM_SEMVER = /^v?(0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

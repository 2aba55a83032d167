/**
 * The Deckhand rendering engine this module renders sites with: the one place that names it, so
 * that the engine can be replaced without touching its users.
 */
export { renderDocuments } from '../deckhand';
export type { RenderedDocument, RenderOptions, RenderResult, SourceDocument } from '../deckhand';

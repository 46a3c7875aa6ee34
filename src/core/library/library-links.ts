/**
 * Where the library's answers link to, as absolute URLs. The server knows its routes and hands
 * them in (server/http/library-links.ts): core builds no route path.
 */
export interface LibraryLinks {
  /** The customer library. */
  library: string
  /** The in-plugin web view library. */
  webview: string
  /** The support page. */
  support: string
  /** Downloads: a file's URL is this prefix, its id and the download token. */
  downloadPrefix: string
}

import type { LibraryLinks } from '../../core/library/library-links'

/** The routes the library's answers link to (as build-server registers them), under the base URL plugins are given. */
export function libraryLinks(baseUrl: string): LibraryLinks {
  return {
    library: `${baseUrl}/api/library`,
    webview: `${baseUrl}/api/license/v1/webview-library`,
    support: `${baseUrl}/support`,
    downloadPrefix: `${baseUrl}/api/downloads/`
  }
}

import { expect, test } from './fixtures'
import { pageOnAnotherOrigin } from './support'

// An in-plugin web view page is served from the vendor's origin, not the emulator's. Its calls
// to the library, webview-library, library-token and downloads carry a Bearer token, so those
// routes answer CORS for any origin; the management API still does not (docs/api.md, "Tokens
// and scopes").

test('a page on another origin reads the library, mints a token and downloads with a Bearer token', async ({
  page,
  emulator
}) => {
  const developer = await emulator.control<{ developer: { id: string } }>('POST', '/developers', {
    email: 'cors-dev@example.test'
  })
  const product = await emulator.control<{ product: { id: string } }>('POST', '/products', {
    developerId: developer.body.developer.id,
    name: 'Cors Compressor'
  })
  const file = await emulator.control<{ file: { id: string } }>('POST', `/products/${product.body.product.id}/files`, {
    version: '1.0.0',
    platform: 'macos',
    sizeBytes: 100
  })
  const customer = await emulator.control<{ customer: { id: string } }>('POST', '/customers', {
    email: 'cors-customer@example.test'
  })
  await emulator.control('POST', '/purchases', {
    customerId: customer.body.customer.id,
    productId: product.body.product.id
  })
  const minted = await emulator.control<{ libraryToken: string }>(
    'POST',
    `/customers/${customer.body.customer.id}/library-token`
  )
  const session = await emulator.control<{ token: string }>(
    'POST',
    `/developers/${developer.body.developer.id}/session`,
    {}
  )

  const vendorSite = await pageOnAnotherOrigin('<!doctype html><title>vendor web view</title><p>the vendor’s page</p>')
  try {
    await page.goto(vendorSite.url)
    const seen = await page.evaluate(
      async ({ baseUrl, token, fileId, developerToken }) => {
        const auth = { authorization: `Bearer ${token}` }
        const library = await fetch(`${baseUrl}/api/library`, { headers: auth })
        const body = (await library.json()) as { products: Array<{ name: string }>; download_token: string }
        const webview = await fetch(`${baseUrl}/api/license/v1/webview-library`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{}'
        })
        const again = await fetch(`${baseUrl}/api/license/v1/library-token`, { headers: auth })
        const download = await fetch(`${baseUrl}/api/downloads/${fileId}`, {
          headers: { authorization: `Bearer ${body.download_token}`, range: 'bytes=0-9' }
        })
        let management = 'answered'
        try {
          await fetch(`${baseUrl}/api/developer/plugin-keys/products`, {
            headers: { authorization: `Bearer ${developerToken}` }
          })
        } catch {
          management = 'blocked'
        }
        return {
          libraryStatus: library.status,
          products: body.products.map((p) => p.name),
          webviewStatus: webview.status,
          libraryTokenStatus: again.status,
          downloadStatus: download.status,
          contentRange: download.headers.get('content-range'),
          contentDisposition: download.headers.get('content-disposition'),
          management
        }
      },
      {
        baseUrl: emulator.baseUrl,
        token: minted.body.libraryToken,
        fileId: file.body.file.id,
        developerToken: session.body.token
      }
    )
    expect(seen).toEqual({
      libraryStatus: 200,
      products: ['Cors Compressor'],
      webviewStatus: 200,
      libraryTokenStatus: 200,
      downloadStatus: 206,
      contentRange: 'bytes 0-9/100',
      contentDisposition: expect.stringContaining('attachment') as unknown as string,
      management: 'blocked'
    })
  } finally {
    vendorSite.close()
  }
})

import { expect, test } from './fixtures'
import { callService, goTo, loadPreset, openApp } from './support'

/** Issue 36, defect 9: the Overview's request count counts as the Requests screen lists (not the UI's own calls). */
test("the Overview counts requests as the Requests screen lists them, and says it leaves out the UI's own", async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  // The Library reads the customer's library through the service API: the UI's own calls (source ui).
  await openApp(page, emulator, '#/library')
  await expect(page.getByTestId('library-licenses')).toBeVisible()
  for (let i = 0; i < 3; i++) await callService(emulator, 'GET', '/.well-known/jwks.json')
  await goTo(page, '#/overview')
  const listed = await emulator.control<{ requests: unknown[] }>('GET', '/requests?source=client,tester&limit=500')
  const everything = await emulator.control<{ requests: { source: string }[] }>(
    'GET',
    '/requests?source=client,tester,ui&limit=500'
  )
  const own = everything.body.requests.filter((entry) => entry.source === 'ui').length
  expect(own).toBeGreaterThan(0)
  await expect(page.getByTestId('count-requests')).toContainText(`${listed.body.requests.length}Requests logged`)
  await expect(page.getByTestId('count-requests')).toContainText(`not counting ${own} of this UI`)
})

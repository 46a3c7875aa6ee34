import { useConnection } from './connection'
import { forgetSessions } from './developers'
import { useLibrary } from './library'
import { useProducts } from './products'
import { useRequests } from './requests'
import { idle } from './resource'
import { useTester } from './tester'

/**
 * After a reset, a preset or an import the whole state is another one: every screen's own
 * state starts over (tester results and connection records, the pending reseller orders and
 * their claim links, the chosen library, revealed secrets, the selected request), minted sessions are
 * forgotten, and every screen reloads what it shows. Called for the UI's own actions and for
 * an `everything` change from the server, whoever made it.
 */
export function startOver(): void {
  forgetSessions()
  useTester.setState(useTester.getInitialState(), true)
  useLibrary.setState({
    source: null,
    libraryToken: null,
    library: idle(),
    webview: idle(),
    resellerOrders: idle(),
    subscription: idle()
  })
  useProducts.setState({ details: {}, pending: null, revealed: null })
  useRequests.setState({ entries: [], held: [], nextBefore: null, selectedId: null, detail: idle() })
  useConnection.getState().stateReplaced()
}

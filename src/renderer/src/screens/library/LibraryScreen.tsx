import { useEffect, useState } from 'react'

import { Card } from '../../components/Card'
import { JsonView } from '../../components/JsonView'
import { EmptyState, ErrorState } from '../../components/States'
import { Tabs } from '../../components/Tabs'
import { useConnection } from '../../stores/connection'
import { useLibrary } from '../../stores/library'
import { useProducts } from '../../stores/products'
import { AccountGroup } from './AccountGroup'
import { LibrarySkeleton } from './LibrarySkeleton'
import { LibrarySource } from './LibrarySource'
import { LicensesGroup } from './LicensesGroup'
import { OrdersGroup } from './OrdersGroup'
import { ProductsGroup } from './ProductsGroup'
import { QaActions } from './QaActions'
import { SubscriptionsGroup } from './SubscriptionsGroup'
import { WebviewPreview } from './WebviewPreview'

export function LibraryScreen({ params }: { params: Record<string, string> }) {
  const loadCustomers = useLibrary((state) => state.loadCustomers)
  const selectCustomer = useLibrary((state) => state.selectCustomer)
  const reload = useLibrary((state) => state.reload)
  const source = useLibrary((state) => state.source)
  const library = useLibrary((state) => state.library)
  const customers = useLibrary((state) => state.customers.data)
  const loadProducts = useProducts((state) => state.loadList)
  const loadResellerOrders = useLibrary((state) => state.loadResellerOrders)
  const dataVersion = useConnection((state) => state.dataVersion)
  const [tab, setTab] = useState('library')

  useEffect(() => {
    void loadCustomers()
    void loadProducts()
    void loadResellerOrders()
  }, [loadCustomers, loadProducts, loadResellerOrders, dataVersion])

  // Reload what is on screen after a preset, an import or a clock move; pick a customer on first visit.
  useEffect(() => {
    if (customers === null) return
    const current = useLibrary.getState().source
    const wanted = params.customer
    if (
      wanted &&
      customers.some((customer) => customer.id === wanted) &&
      !(current?.kind === 'customer' && current.customerId === wanted)
    ) {
      void selectCustomer(wanted)
    } else if (!current && customers[0]) {
      void selectCustomer(customers[0].id)
    } else if (current) {
      void reload()
    }
  }, [customers, params.customer, selectCustomer, reload])

  const payload = library.data
  return (
    <div className="screen library" data-testid="library-screen">
      <LibrarySource />
      {/* The library first: at 1024x768 it starts on the first screen; the QA controls follow it. */}
      <div className="library__layout">
        <div className="library__main">
          {source === null && customers !== null && customers.length === 0 ? (
            <EmptyState title="No customers yet">
              Create a customer above, or paste a library token. The “full library” preset (Scenarios) has one with
              seven licenses.
            </EmptyState>
          ) : (
            <Tabs
              label="Library views"
              selected={tab}
              onSelect={setTab}
              tabs={[
                { id: 'library', label: 'Customer library' },
                { id: 'webview', label: 'In-plugin web view' },
                { id: 'raw', label: 'Raw JSON' }
              ]}
            >
              {library.status === 'error' && payload === null ? (
                <ErrorState error={library.error} title="Could not load the library" onRetry={() => void reload()} />
              ) : tab === 'webview' ? (
                <WebviewPreview />
              ) : payload === null ? (
                <LibrarySkeleton />
              ) : tab === 'raw' ? (
                <Card
                  title="GET /api/library"
                  description="The payload exactly as the customer library page receives it."
                >
                  <JsonView value={payload} label="Library payload" maxHeight={640} testId="library-raw" />
                </Card>
              ) : (
                <div className="stack stack--loose" data-testid="library-view">
                  <ProductsGroup products={payload.products} />
                  <LicensesGroup licenses={payload.licenses} />
                  <div className="grid grid--2">
                    <SubscriptionsGroup subscriptions={payload.subscriptions} />
                    <OrdersGroup orders={payload.orders} />
                  </div>
                  <AccountGroup payload={payload} />
                </div>
              )}
            </Tabs>
          )}
        </div>
      </div>
      <QaActions />
    </div>
  )
}

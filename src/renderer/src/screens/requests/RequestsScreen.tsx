import { useEffect } from 'react'

import { openRequestStream } from '../../api/stream'
import { requireApi, useConnection } from '../../stores/connection'
import { useProducts } from '../../stores/products'
import { useRequests } from '../../stores/requests'
import { frameBatcher } from './frame-batch'
import { RequestDetail } from './RequestDetail'
import { RequestFilters } from './RequestFilters'
import { RequestList } from './RequestList'

/**
 * The inspector; `#/requests?q=<text>` opens it searching for that text (a license key: the
 * Library's "Its requests", see requestsOfLicense in navigation/routes.ts).
 */
export function RequestsScreen({ params = {} }: { params?: Record<string, string> }) {
  const filters = useRequests((state) => state.filters)
  const load = useRequests((state) => state.load)
  const receiveMany = useRequests((state) => state.receiveMany)
  const setLive = useRequests((state) => state.setLive)
  const loadProducts = useProducts((state) => state.loadList)
  const dataVersion = useConnection((state) => state.dataVersion)
  // The log has its own live stream: it starts again only when the whole state was replaced.
  const generation = useConnection((state) => state.generation)

  // A link's search becomes the filter (once per link followed; the search box can change it after).
  const linkedSearch = params.q
  const setFilters = useRequests((state) => state.setFilters)
  useEffect(() => {
    if (linkedSearch && linkedSearch !== useRequests.getState().filters.q) setFilters({ q: linkedSearch })
  }, [linkedSearch, setFilters])

  useEffect(() => {
    void loadProducts()
  }, [loadProducts, dataVersion])

  // The list, then the live feed with the same filters; both again whenever the filters change.
  useEffect(() => {
    void load()
    const batch = frameBatcher(receiveMany)
    const close = openRequestStream(requireApi().control.requestStreamUrl(filters), {
      onEntry: batch.push,
      onState: setLive
    })
    return () => {
      close()
      batch.cancel()
      setLive('off')
    }
  }, [filters, load, receiveMany, setLive, generation])

  return (
    <div className="screen requests" data-testid="requests-screen">
      <RequestFilters />
      <div className="requests__panes">
        <RequestList />
        <RequestDetail />
      </div>
    </div>
  )
}

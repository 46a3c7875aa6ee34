import { useEffect } from 'react'

import { openRequestStream } from '../../api/stream'
import { requireApi, useConnection } from '../../stores/connection'
import { useProducts } from '../../stores/products'
import { useRequests } from '../../stores/requests'
import { frameBatcher } from './frame-batch'
import { RequestDetail } from './RequestDetail'
import { RequestFilters } from './RequestFilters'
import { RequestList } from './RequestList'

export function RequestsScreen() {
  const filters = useRequests((state) => state.filters)
  const load = useRequests((state) => state.load)
  const receiveMany = useRequests((state) => state.receiveMany)
  const setLive = useRequests((state) => state.setLive)
  const loadProducts = useProducts((state) => state.loadList)
  const dataVersion = useConnection((state) => state.dataVersion)
  // The log has its own live stream: it starts again only when the whole state was replaced.
  const generation = useConnection((state) => state.generation)

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

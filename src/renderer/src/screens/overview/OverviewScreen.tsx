import { useEffect } from 'react'

import { ErrorState } from '../../components/States'
import { useConnection } from '../../stores/connection'
import { useDevelopers } from '../../stores/developers'
import { useProducts } from '../../stores/products'
import { failedWithoutData } from '../../stores/resource'
import { CountsGrid } from './CountsGrid'
import { FirstRun } from './FirstRun'
import { QuickLinks } from './QuickLinks'
import { RecentRequests } from './RecentRequests'
import { ServerCard } from './ServerCard'

/** How often the overview refreshes its counts while it is open. */
const REFRESH_MS = 5000

export function OverviewScreen() {
  const info = useConnection((state) => state.info)
  const refreshInfo = useConnection((state) => state.refreshInfo)
  const dataVersion = useConnection((state) => state.dataVersion)
  const developers = useDevelopers((state) => state.developers.data)
  const products = useProducts((state) => state.products.data)
  const loadProducts = useProducts((state) => state.loadList)

  useEffect(() => {
    void refreshInfo()
    const timer = setInterval(() => void refreshInfo(), REFRESH_MS)
    return () => clearInterval(timer)
  }, [refreshInfo])

  useEffect(() => {
    void loadProducts()
  }, [loadProducts, dataVersion])

  // "Get started" until the first credential exists: developer, product, then the credential.
  const credentialCount = info.data?.counts.credentials ?? 0
  const firstRun =
    developers !== null &&
    products !== null &&
    (developers.length === 0 || products.length === 0 || credentialCount === 0)

  return (
    <div className="screen overview" data-testid="overview">
      {failedWithoutData(info) ? (
        <ErrorState error={info.error} title="Could not read the server status" onRetry={() => void refreshInfo()} />
      ) : null}
      <div className="grid grid--overview">
        <ServerCard />
        {firstRun ? <FirstRun /> : <QuickLinks />}
      </div>
      <CountsGrid />
      <RecentRequests />
    </div>
  )
}

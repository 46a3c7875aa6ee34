import { useEffect } from 'react'

import type { Product } from '../../api/types'
import { EmptyState, ErrorState } from '../../components/States'
import { replaceParams } from '../../navigation/router'
import { buildHash } from '../../navigation/routes'
import { useConnection } from '../../stores/connection'
import { selectActingDeveloper, useDevelopers } from '../../stores/developers'
import { selectVisibleProducts, useProducts } from '../../stores/products'
import { failedWithoutData } from '../../stores/resource'
import { CredentialPanel } from './CredentialPanel'
import { ProductPicker } from './ProductPicker'
import { RevealDialog } from './RevealDialog'

const NO_PRODUCTS: Product[] = []

export function CredentialsScreen({ params }: { params: Record<string, string> }) {
  const acting = useDevelopers(selectActingDeveloper)
  const developers = useDevelopers((state) => state.developers)
  const products = useProducts((state) => state.products)
  const load = useProducts((state) => state.load)
  const dataVersion = useConnection((state) => state.dataVersion)
  const listed = useProducts((state) => selectVisibleProducts(state, acting))
  const visible = listed ?? NO_PRODUCTS
  const selected = visible.find((product) => product.id === params.product) ?? null

  useEffect(() => {
    void load()
  }, [load, acting?.id, dataVersion])

  // No product in the route (or one this developer cannot see): pick the first visible one.
  useEffect(() => {
    if (listed === null || !acting) return
    if (!selected && visible[0]) replaceParams('credentials', { product: visible[0].id })
  }, [listed, acting, selected, visible])

  if (developers.data !== null && developers.data.length === 0) {
    return (
      <EmptyState
        title="No developer yet"
        action={
          <a className="btn btn--primary" href={buildHash('overview')}>
            Create a developer and a product
          </a>
        }
      >
        Credentials belong to products, and products to developers.
      </EmptyState>
    )
  }
  if (failedWithoutData(products)) {
    return <ErrorState error={products.error} title="Could not list products" onRetry={() => void load()} />
  }

  return (
    <div className="screen split" data-testid="credentials-screen">
      <ProductPicker products={acting === null ? null : listed} selectedId={selected?.id ?? null} />
      <div className="split__main">
        {selected ? (
          <CredentialPanel product={selected} />
        ) : listed !== null && acting !== null && visible.length === 0 ? (
          <EmptyState
            title={`${acting.name ?? acting.email} has no products`}
            action={
              <a className="btn btn--primary" href={buildHash('developers')}>
                Create a product
              </a>
            }
          >
            Create a product first, or act as another developer.
          </EmptyState>
        ) : (
          <CredentialPanel product={null} />
        )}
      </div>
      <RevealDialog />
    </div>
  )
}

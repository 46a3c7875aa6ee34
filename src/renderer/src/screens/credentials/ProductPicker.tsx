import { useState } from 'react'

import type { Product } from '../../api/types'
import { ListSearch, matchesQuery } from '../../components/ListSearch'
import { Skeleton } from '../../components/Skeleton'
import { buildHash } from '../../navigation/routes'
import { currentCredentialByProduct, useProducts } from '../../stores/products'
import { CredentialStatusBadge } from '../developers/ProductList'

/** The products of the acting developer, as a list of links (the selection lives in the route). */
export function ProductPicker({ products, selectedId }: { products: Product[] | null; selectedId: string | null }) {
  const credentials = useProducts((state) => state.credentials.data)
  const current = currentCredentialByProduct(credentials)
  const [query, setQuery] = useState('')
  // The selected product stays listed whatever the search, so the page never loses its subject.
  const listed =
    products?.filter((product) => product.id === selectedId || matchesQuery(query, product.name, product.id)) ?? null
  return (
    <nav className="picker" aria-label="Products">
      <h2 className="picker__title">Products</h2>
      {products && products.length > 8 ? (
        <ListSearch
          value={query}
          onChange={setQuery}
          label="Search products"
          placeholder="Name or ID"
          shown={listed?.length ?? 0}
          total={products.length}
          testId="product-picker-search"
        />
      ) : null}
      <ul className="picker__list">
        {products === null
          ? Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="picker__item" aria-hidden="true">
                <span className="picker__link">
                  <Skeleton width="70%" height="1em" />
                  <Skeleton width="50%" height="0.8em" />
                </span>
              </li>
            ))
          : (listed ?? []).map((product) => (
              <li key={product.id} className="picker__item">
                <a
                  className="picker__link"
                  href={buildHash('credentials', { product: product.id })}
                  aria-current={product.id === selectedId ? 'page' : undefined}
                >
                  <span className="picker__name">{product.name}</span>
                  <span className="picker__meta">
                    <code className="mono">{product.id}</code>
                    {credentials === null ? (
                      <Skeleton width={56} height="1.2em" radius={999} />
                    ) : (
                      <CredentialStatusBadge credential={current.get(product.id)} />
                    )}
                  </span>
                </a>
              </li>
            ))}
      </ul>
    </nav>
  )
}

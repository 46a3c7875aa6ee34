import type { Product } from '../api/types'

/** One <option> per product, for every product <Select>; the product ID is shown where names may repeat. */
export function ProductOptions({
  products,
  withId = false
}: {
  products: readonly Product[] | null
  withId?: boolean
}) {
  return (
    <>
      {(products ?? []).map((product) => (
        <option key={product.id} value={product.id}>
          {withId ? `${product.name} (${product.id})` : product.name}
        </option>
      ))}
    </>
  )
}

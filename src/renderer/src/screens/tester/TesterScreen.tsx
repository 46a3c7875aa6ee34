import { useEffect } from 'react'

import { useConnection } from '../../stores/connection'
import { useProducts } from '../../stores/products'
import { useTester } from '../../stores/tester'
import { ConnectionSummary } from '../credentials/ConnectionSummary'
import { CredentialForm } from './CredentialForm'
import { LicenseForm } from './LicenseForm'
import { StepCard } from './StepCard'

export function TesterScreen({ params }: { params: Record<string, string> }) {
  const loadProducts = useProducts((state) => state.loadList)
  const dataVersion = useConnection((state) => state.dataVersion)
  const connection = useTester((state) => state.connection)
  const productId = useTester((state) => state.values.productId)
  const products = useProducts((state) => state.products.data)
  const chooseProduct = useTester((state) => state.chooseProduct)
  const loadConnection = useTester((state) => state.loadConnection)
  const loadLicenses = useTester((state) => state.loadLicenses)

  useEffect(() => {
    void loadProducts()
  }, [loadProducts, dataVersion])

  // The product's credential as it is now: a step run before a rotation or revocation says so.
  const loadDetail = useProducts((state) => state.loadDetail)
  useEffect(() => {
    if (productId) void loadDetail(productId)
  }, [productId, loadDetail, dataVersion])

  // The product's connection record and its licenses as the server has them now: read when the
  // product is chosen (not only after a step ran) and again on every change, whoever made it.
  useEffect(() => {
    if (!productId) return
    void loadConnection()
    void loadLicenses()
  }, [productId, loadConnection, loadLicenses, dataVersion])

  // #/tester?product=... preselects a product.
  useEffect(() => {
    const wanted = params.product
    if (!wanted || !products) return
    const product = products.find((candidate) => candidate.id === wanted)
    if (product && useTester.getState().values.productId !== product.id) chooseProduct(product)
  }, [params.product, products, chooseProduct])

  return (
    <div className="screen tester" data-testid="tester-screen">
      <div className="tester__inputs stack stack--loose">
        <CredentialForm />
        <LicenseForm />
      </div>
      <div className="tester__results stack stack--loose">
        <ol className="lifecycle" aria-label="Plugin lifecycle">
          <StepCard step="verify" index={1} />
          <StepCard step="activate" index={2} />
          <StepCard step="validate" index={3} />
          <StepCard step="deactivate" index={4} />
        </ol>
        {productId ? <ConnectionSummary connection={connection} title="Connection status record" /> : null}
      </div>
    </div>
  )
}

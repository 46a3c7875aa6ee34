import { useEffect, useState } from 'react'

import type { Developer, Product } from '../../api/types'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { DefaultsDialog, PERSON_FIELDS } from '../../components/DefaultsDialog'
import { Icon } from '../../components/Icon'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { buildHash } from '../../navigation/routes'
import { useConnection } from '../../stores/connection'
import { selectActingDeveloper, useDevelopers } from '../../stores/developers'
import { selectVisibleProducts, useProducts } from '../../stores/products'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'

/** Stable empty list: a selector must not build a new array on every call. */
const NO_DEVELOPERS: Developer[] = []
const NO_PRODUCTS: Product[] = []

/** First run: a developer and a product (defaults offered in a dialog), then straight to its credential. */
export function FirstRun() {
  const developers = useDevelopers((state) => state.developers.data) ?? NO_DEVELOPERS
  const acting = useDevelopers(selectActingDeveloper)
  const createDeveloper = useDevelopers((state) => state.create)
  const own = useProducts((state) => selectVisibleProducts(state, acting)) ?? NO_PRODUCTS
  const loadVisible = useProducts((state) => state.loadVisible)
  const createProduct = useProducts((state) => state.createProduct)
  const loadPreset = useSettings((state) => state.loadPreset)
  const refreshInfo = useConnection((state) => state.refreshInfo)
  const { busy, error, run } = useAction<'preset'>()
  const [naming, setNaming] = useState(false)
  const [namingProduct, setNamingProduct] = useState(false)

  useEffect(() => {
    void loadVisible()
  }, [loadVisible, acting?.id])
  const hasDeveloper = developers.length > 0
  const hasProduct = own.length > 0

  return (
    <Card
      title="Get started"
      description="A developer and a product, then issue the product's credential."
      testId="first-run"
    >
      <ol className="steps">
        <li className={`step ${hasDeveloper ? 'step--done' : 'step--current'}`}>
          <span className="step__marker" aria-hidden="true">
            {hasDeveloper ? <Icon name="check" size={14} /> : '1'}
          </span>
          <div className="step__body">
            <p className="step__title">Create a developer</p>
            {hasDeveloper ? (
              <p className="muted small">Acting as {acting?.name ?? acting?.email ?? developers[0]?.email}.</p>
            ) : (
              <Button variant="primary" onClick={() => setNaming(true)}>
                Create developer
              </Button>
            )}
          </div>
        </li>
        <li className={`step ${hasProduct ? 'step--done' : hasDeveloper ? 'step--current' : ''}`}>
          <span className="step__marker" aria-hidden="true">
            {hasProduct ? <Icon name="check" size={14} /> : '2'}
          </span>
          <div className="step__body">
            <p className="step__title">Create a product</p>
            {hasProduct ? (
              <p className="muted small">{own[0]?.name} is ready.</p>
            ) : (
              <Button
                variant={hasDeveloper ? 'primary' : 'secondary'}
                disabled={!hasDeveloper || !acting}
                disabledReason="Create a developer first: the product belongs to them."

                onClick={() => setNamingProduct(true)}
              >
                Create product
              </Button>
            )}
          </div>
        </li>
        <li className={`step ${hasProduct ? 'step--current' : ''}`}>
          <span className="step__marker" aria-hidden="true">
            3
          </span>
          <div className="step__body">
            <p className="step__title">Issue its credential</p>
            {hasProduct && own[0] ? (
              <a className="btn btn--secondary" href={buildHash('credentials', { product: own[0].id })}>
                Go to credentials
              </a>
            ) : (
              <p className="muted small">App ID, plugin key and plugin secret for the plugin package.</p>
            )}
          </div>
        </li>
      </ol>
      <p className="first-run__preset muted small">
        Or start from sample data:{' '}
        <button
          type="button"
          className="link-button"
          disabled={busy !== null}
          onClick={() =>
            void run('preset', async () => {
              await loadPreset('full-library')
              void refreshInfo()
              toast.success('Preset loaded', 'Customer with a full library')
            })
          }
        >
          load the “full library” preset
        </button>
        {busy === 'preset' ? <span className="spinner" aria-hidden="true" /> : null}
      </p>
      <InlineError error={error} />
      <DefaultsDialog
        fields={PERSON_FIELDS}
        open={naming}
        title="Create a developer"
        description="The developer owns products and their credentials. Change the defaults if you like."
        defaults={{ name: 'My Studio', email: 'developer@example.test' }}
        submitLabel="Create developer"
        onClose={() => setNaming(false)}
        onSubmit={async ({ name, email }) => {
          const developer = await createDeveloper({ email: email ?? '', ...(name ? { name } : {}) })
          void refreshInfo()
          toast.success(
            `Now acting as ${developer.name ?? developer.email}`,
            `Developer created (${developer.id}); new products belong to them.`
          )
        }}
        testId="create-developer-dialog"
      />
      <DefaultsDialog
        open={namingProduct}
        title="Create a product"
        description={`It belongs to ${acting?.name ?? acting?.email ?? 'the acting developer'}. Change the default name if you like.`}
        fields={[{ key: 'name', label: 'Product name', required: true }]}
        defaults={{ name: 'My First Plugin' }}
        submitLabel="Create product"
        onClose={() => setNamingProduct(false)}
        onSubmit={async ({ name }) => {
          if (!acting) return
          const product = await createProduct({ developerId: acting.id, name: name ?? '' })
          void refreshInfo()
          toast.success('Product created', `${product.name} (${product.id})`)
        }}
        testId="create-product-dialog"
      />
    </Card>
  )
}

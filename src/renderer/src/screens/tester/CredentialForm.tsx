import { useState } from 'react'

import { Button, IconButton } from '../../components/Button'
import { Card } from '../../components/Card'
import { Field, Select, TextInput } from '../../components/Field'
import { ProductOptions } from '../../components/ProductOptions'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { useConnection } from '../../stores/connection'
import { useProducts } from '../../stores/products'
import { useTester } from '../../stores/tester'
import { diagnose, FIELD_LABELS } from './diagnosis'
import type { CredentialField } from './diagnosis'

const FIELDS: { field: CredentialField; placeholder: string; secret?: boolean }[] = [
  { field: 'productId', placeholder: 'prod_…' },
  { field: 'appId', placeholder: 'app_…' },
  { field: 'pluginKey', placeholder: 'pk_…', secret: true },
  { field: 'pluginSecret', placeholder: 'sk_…', secret: true }
]

/** The four values: picked from a product (and a reveal), or pasted as a plugin holds them. */
export function CredentialForm() {
  const values = useTester((state) => state.values)
  const origin = useTester((state) => state.origin)
  const setValues = useTester((state) => state.setValues)
  const chooseProduct = useTester((state) => state.chooseProduct)
  const revealInto = useTester((state) => state.revealInto)
  const verifyResult = useTester((state) => state.results.verify)
  const strict = useConnection((state) => state.info.data?.settings.strict ?? false)
  const products = useProducts((state) => state.products.data)
  const [shown, setShown] = useState(false)
  const { busy, error: revealError, run } = useAction<'reveal'>()

  const selected = products?.find((product) => product.id === values.productId) ?? null
  const diagnosis = verifyResult?.exchange.error ? diagnose(verifyResult.exchange.error, strict) : null

  const fill = async () => {
    if (!selected) return
    await run('reveal', () => revealInto(selected.id, selected.name))
  }

  return (
    <Card
      title="Credential"
      description="What the plugin package holds. Pick a product, or paste the four values."
      testId="tester-credential"
    >
      <div className="stack">
        <Field label="Product" hint={origin ?? 'Fills the product ID and App ID.'}>
          {(control) => (
            <Select
              {...control}
              value={selected?.id ?? ''}
              onChange={(event) => {
                const product = products?.find((candidate) => candidate.id === event.target.value)
                if (product) chooseProduct(product)
              }}
            >
              <option value="">{products === null ? 'Loading products…' : 'Pasted values (no product chosen)'}</option>
              <ProductOptions products={products} withId />
            </Select>
          )}
        </Field>
        {selected ? (
          <div className="inline-actions">
            <Button size="sm" icon="key" busy={busy === 'reveal'} onClick={() => void fill()}>
              Fill key and secret (reveal)
            </Button>
            <span className="muted small">As the acting developer; recorded in the audit trail.</span>
          </div>
        ) : null}
        <InlineError error={revealError} />
        {revealError?.code === 'PRODUCT_NOT_FOUND' ? (
          <p className="muted small">
            The acting developer does not own this product: act as its owner or an admin (top right), or paste the
            values.
          </p>
        ) : null}
        {FIELDS.map(({ field, placeholder, secret }) => {
          const wrong = diagnosis?.fields.includes(field) ?? false
          return (
            <Field key={field} label={FIELD_LABELS[field]} error={wrong ? diagnosis?.title : undefined}>
              {(control) => (
                <div className="input-with-button">
                  <TextInput
                    {...control}
                    className="mono"
                    type={secret && !shown ? 'password' : 'text'}
                    value={values[field]}
                    placeholder={placeholder}
                    onChange={(event) => setValues({ [field]: event.target.value })}
                    data-testid={`tester-${field}`}
                  />
                  {field === 'pluginSecret' ? (
                    <IconButton
                      icon={shown ? 'eyeOff' : 'eye'}
                      label={shown ? 'Hide key and secret' : 'Show key and secret'}
                      needsServer={false}
                      aria-pressed={shown}
                      onClick={() => setShown(!shown)}
                    />
                  ) : null}
                </div>
              )}
            </Field>
          )
        })}
      </div>
    </Card>
  )
}

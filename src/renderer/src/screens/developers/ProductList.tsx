import { useState } from 'react'

import type { CredentialRecord, Developer, Product } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { CreateForm } from '../../components/CreateForm'
import { Field, Select, TextInput } from '../../components/Field'
import { ListSearch, matchesQuery } from '../../components/ListSearch'
import { LongValue } from '../../components/LongValue'
import { ResourceTable } from '../../components/ResourceTable'
import { EmptyState } from '../../components/States'
import type { Column } from '../../components/Table'
import { useAction } from '../../components/use-action'
import { buildHash } from '../../navigation/routes'
import { selectActingDeveloper, useDevelopers } from '../../stores/developers'
import { currentCredentialByProduct, selectVisibleProducts, useProducts } from '../../stores/products'
import { failedWithoutData } from '../../stores/resource'
import type { Resource } from '../../stores/resource'
import { toast } from '../../stores/toasts'

/** Stable empty list: a selector must not build a new array on every call. */
const NO_DEVELOPERS: Developer[] = []

export function CredentialStatusBadge({ credential }: { credential: CredentialRecord | undefined | null }) {
  if (!credential) return <Badge tone="neutral">no credential</Badge>
  return credential.isActive ? <Badge tone="success">active</Badge> : <Badge tone="danger">revoked</Badge>
}

function CreateProductForm({ acting, developers }: { acting: Developer; developers: Developer[] }) {
  const createProduct = useProducts((state) => state.createProduct)
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const [owner, setOwner] = useState(acting.id)
  const { busy, error, run } = useAction<'create'>()
  const ownerId = acting.role === 'admin' ? owner : acting.id
  return (
    <CreateForm
      label="Create a product"
      className="form-grid--product"
      submitLabel="Create product"
      busy={busy !== null}
      error={error}
      onSubmit={() => {
        const input: { developerId: string; name: string; storefrontSlug?: string } = {
          developerId: ownerId,
          name: name.trim()
        }
        if (slug.trim()) input.storefrontSlug = slug.trim()
        void run('create', async () => {
          const product = await createProduct(input)
          toast.success('Product created', `${product.name} (${product.id})`)
          setName('')
          setSlug('')
        })
      }}
    >
      <Field label="Product name">
        {(control) => (
          <TextInput
            {...control}
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Tape Delay"
          />
        )}
      </Field>
      <Field label="Storefront slug" hint="Optional: lowercase, digits, dashes.">
        {(control) => (
          <TextInput
            {...control}
            value={slug}
            pattern="[a-z0-9][a-z0-9\-]*"
            onChange={(e) => setSlug(e.target.value)}
            placeholder="my-store"
          />
        )}
      </Field>
      {acting.role === 'admin' ? (
        <Field label="Owner">
          {(control) => (
            <Select {...control} value={owner} onChange={(e) => setOwner(e.target.value)}>
              {developers.map((developer) => (
                <option key={developer.id} value={developer.id}>
                  {developer.name ?? developer.email}
                </option>
              ))}
            </Select>
          )}
        </Field>
      ) : null}
    </CreateForm>
  )
}

/** The acting developer's products (every product for an admin), with their credential status. */
export function ProductList() {
  const acting = useDevelopers(selectActingDeveloper)
  const developers = useDevelopers((state) => state.developers.data) ?? NO_DEVELOPERS
  const products = useProducts((state) => state.products)
  const credentials = useProducts((state) => state.credentials.data)
  const load = useProducts((state) => state.load)
  const [query, setQuery] = useState('')
  const listed = useProducts((state) => selectVisibleProducts(state, acting))
  // The list shown fails with the product list, or with the acting developer's listing.
  const listing = useProducts((state): Resource<unknown> =>
    failedWithoutData(state.products) ? state.products : state.visible
  )
  const visible = acting ? listed : products.data && developers.length === 0 ? [] : null
  const rows = visible?.filter((product) => matchesQuery(query, product.name, product.id, product.appId)) ?? null
  const current = currentCredentialByProduct(credentials)
  const ownerName = (id: string) => {
    const owner = developers.find((developer) => developer.id === id)
    return owner ? (owner.name ?? owner.email) : id
  }

  const columns: Column<Product>[] = [
    {
      key: 'name',
      header: 'Product',
      render: (product) => (
        <span className="stack stack--tight">
          <span className="strong">{product.name}</span>
          <span className="small">
            <LongValue value={product.id} what={`product ID of ${product.name}`} />
          </span>
        </span>
      ),
      skeletonWidth: '80%',
      sortValue: (product) => product.name
    },
    {
      key: 'app',
      header: 'App ID',
      render: (product) => <code className="mono small">{product.appId}</code>,
      sortValue: (product) => product.appId
    },
    ...(acting?.role === 'admin'
      ? [
          {
            key: 'owner',
            header: 'Owner',
            width: 140,
            render: (product: Product) => <span className="small">{ownerName(product.developerId)}</span>
          }
        ]
      : []),
    {
      key: 'credential',
      header: 'Credential',
      width: 120,
      render: (product) => <CredentialStatusBadge credential={current.get(product.id)} />,
      skeletonWidth: 70,
      sortValue: (product) => current.get(product.id)?.status ?? null
    },
    {
      key: 'open',
      header: <span className="visually-hidden">Open</span>,
      width: 124,
      align: 'right',
      render: (product) => (
        <a
          className="btn btn--secondary btn--sm"
          href={buildHash('credentials', { product: product.id })}
          aria-label={`Credentials of ${product.name}`}
        >
          Credentials
        </a>
      ),
      skeletonWidth: 70
    }
  ]

  return (
    <Card
      title={acting?.role === 'admin' ? 'All products' : 'Products'}
      description={
        acting
          ? `As ${acting.name ?? acting.email}${acting.role === 'admin' ? ', an admin: every product is visible.' : ': only products they own.'}`
          : 'Choose a developer to act as.'
      }
      testId="product-list"
    >
      {(visible?.length ?? 0) > 8 ? (
        <ListSearch
          value={query}
          onChange={setQuery}
          label="Search products"
          placeholder="Name, product ID or App ID"
          shown={rows?.length ?? 0}
          total={visible?.length ?? 0}
          testId="product-search"
        />
      ) : null}
      <ResourceTable
        resource={listing}
        rows={rows}
        failedTitle="Could not list products"
        onRetry={() => void load()}
        caption="Products"
        columns={columns}
        skeletonRows={3}
        rowKey={(product) => product.id}
        rowTestId={(product) => `product-${product.id}`}
        empty={
          <EmptyState compact title={acting ? 'No products yet' : 'No developer yet'}>
            {acting ? 'Create the first one below.' : 'Create a developer first.'}
          </EmptyState>
        }
      />
      {acting ? (
        <>
          <h3 className="subheading">New product</h3>
          <CreateProductForm acting={acting} developers={developers} />
        </>
      ) : null}
    </Card>
  )
}

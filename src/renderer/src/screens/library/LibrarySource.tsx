import { useState } from 'react'

import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { DefaultsDialog, PERSON_FIELDS } from '../../components/DefaultsDialog'
import { Field, Select, TextInput } from '../../components/Field'
import { matchesQuery } from '../../components/ListSearch'
import { replaceParams } from '../../navigation/router'
import { useLibrary } from '../../stores/library'
import { toast } from '../../stores/toasts'

/** Whose library: a customer (a library token is minted for them) or a pasted token; and as which device. */
export function LibrarySource() {
  const customers = useLibrary((state) => state.customers.data)
  const source = useLibrary((state) => state.source)
  const options = useLibrary((state) => state.options)
  const setOptions = useLibrary((state) => state.setOptions)
  const selectCustomer = useLibrary((state) => state.selectCustomer)
  const openPastedToken = useLibrary((state) => state.openPastedToken)
  const createCustomer = useLibrary((state) => state.createCustomer)
  const reload = useLibrary((state) => state.reload)
  const loading = useLibrary((state) => state.library.status === 'loading')
  const [token, setToken] = useState('')
  /** Open while naming a new customer: a suffix, taken when the dialog opens, keeps the default email unique. */
  const [naming, setNaming] = useState<string | null>(null)
  const nextNumber = (customers?.length ?? 0) + 1

  const customerId = source?.kind === 'customer' ? source.customerId : ''
  // Hundreds of customers: a search narrows the picker (the chosen one stays in it).
  const [query, setQuery] = useState('')
  const listed = (customers ?? []).filter(
    (customer) => customer.id === customerId || matchesQuery(query, customer.name, customer.email, customer.id)
  )

  return (
    <Card className="library-source" testId="library-source">
      <div className="library-source__row">
        <Field label="Customer" className="library-source__customer">
          {(control) => (
            <Select
              {...control}
              value={source?.kind === 'token' ? '__token' : customerId}
              onChange={(event) => {
                const id = event.target.value
                if (!id || id === '__token') return
                replaceParams('library', { customer: id })
                void selectCustomer(id)
              }}
              data-testid="library-customer"
            >
              {customers === null ? <option value="">Loading customers…</option> : null}
              {customers !== null && customerId === '' && source?.kind !== 'token' ? (
                <option value="">Choose a customer</option>
              ) : null}
              {source?.kind === 'token' ? <option value="__token">Pasted library token</option> : null}
              {listed.map((customer) => (
                <option key={customer.id} value={customer.id}>
                  {customer.name ?? customer.email} ({customer.email})
                </option>
              ))}
            </Select>
          )}
        </Field>
        {(customers?.length ?? 0) > 10 ? (
          <Field label="Find customer" className="library-source__find">
            {(control) => (
              <TextInput
                {...control}
                type="search"
                value={query}
                placeholder="Name, email or ID"
                maxLength={200}
                onChange={(event) => {
                  const next = event.target.value
                  setQuery(next)
                  // One match: that is the customer meant.
                  const matches = (customers ?? []).filter((customer) =>
                    matchesQuery(next, customer.name, customer.email, customer.id)
                  )
                  const only = matches.length === 1 ? matches[0] : undefined
                  if (next.trim() && only && only.id !== customerId) {
                    replaceParams('library', { customer: only.id })
                    void selectCustomer(only.id)
                  }
                }}
                data-testid="library-customer-search"
              />
            )}
          </Field>
        ) : null}
        <Button size="sm" icon="plus" onClick={() => setNaming(Date.now().toString(36))}>
          New customer
        </Button>
        <form
          className="library-source__token"
          onSubmit={(event) => {
            event.preventDefault()
            if (token.trim()) void openPastedToken(token)
          }}
        >
          <Field label="…or a library token">
            {(control) => (
              <TextInput
                {...control}
                type="password"
                className="mono"
                value={token}
                onChange={(event) => setToken(event.target.value)}
                placeholder="eyJ…"
              />
            )}
          </Field>
          <Button size="sm" type="submit" disabled={!token.trim()} disabledReason="Paste a library token first.">
            Open
          </Button>
        </form>
      </div>
      <div className="library-source__row">
        <Field
          label="This device (instance ID)"
          hint="Marks which licenses are activated on it."
          className="library-source__option"
        >
          {(control) => (
            <TextInput
              {...control}
              className="mono"
              value={options.instanceId}
              onChange={(event) => setOptions({ instanceId: event.target.value })}
              onBlur={() => void reload()}
              placeholder="e.g. studio-mac"
            />
          )}
        </Field>
        <Field label="Storefront" hint="Only products of one storefront." className="library-source__option">
          {(control) => (
            <TextInput
              {...control}
              value={options.storefront}
              onChange={(event) => setOptions({ storefront: event.target.value })}
              onBlur={() => void reload()}
              placeholder="all storefronts"
            />
          )}
        </Field>
        <Button
          size="sm"
          icon="refresh"
          busy={loading}
          onClick={() => void reload()}
          disabled={source === null}
          disabledReason="Choose a customer or open a library token first."
        >
          Reload
        </Button>
        <Button
          size="sm"
          variant="ghost"
          needsServer={false}
          title="The QA actions follow the library: new purchase, reseller order, subscription events, the clock"
          onClick={() => {
            const toolbar = document.querySelector<HTMLElement>('[data-testid="qa-toolbar"]')
            toolbar?.scrollIntoView({ block: 'start' })
            toolbar?.querySelector<HTMLElement>('select, input, button')?.focus({ preventScroll: true })
          }}
        >
          QA actions ↓
        </Button>
      </div>
      <DefaultsDialog
        fields={PERSON_FIELDS}
        open={naming !== null}
        title="New customer"
        description="A customer of the store: their library starts empty. Change the defaults if you like."
        defaults={{ name: `Test Customer ${nextNumber}`, email: `customer${nextNumber}-${naming ?? ''}@example.test` }}
        submitLabel="Create customer"
        onClose={() => setNaming(null)}
        onSubmit={async ({ name, email }) => {
          const customer = await createCustomer({ email: email ?? '', ...(name ? { name } : {}) })
          toast.success(
            'Customer created',
            `${customer.name ?? customer.email} (${customer.email}); their library is open.`
          )
          replaceParams('library', { customer: customer.id })
          await selectCustomer(customer.id)
        }}
        testId="new-customer-dialog"
      />
    </Card>
  )
}

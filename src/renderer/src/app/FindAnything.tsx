import { useEffect, useState } from 'react'

import type { Customer, License, Product } from '../api/types'
import { Dialog } from '../components/Dialog'
import { matchesQuery } from '../components/ListSearch'
import { buildHash } from '../navigation/routes'
import { requireApi, useConnection } from '../stores/connection'

interface Found {
  kind: 'Product' | 'Customer' | 'License'
  id: string
  title: string
  detail: string
  href: string
}

/** What the find dialog searches, read from the control plane when it opens. */
interface Everything {
  products: Product[]
  customers: Customer[]
  licenses: License[]
}

const MAX_SHOWN = 30

function search(all: Everything, query: string): Found[] {
  if (!query.trim()) return []
  const customerById = new Map(all.customers.map((customer) => [customer.id, customer]))
  const found: Found[] = []
  for (const product of all.products)
    if (matchesQuery(query, product.name, product.id, product.appId))
      found.push({
        kind: 'Product',
        id: product.id,
        title: product.name,
        detail: product.id,
        href: buildHash('credentials', { product: product.id })
      })
  for (const customer of all.customers)
    if (matchesQuery(query, customer.name, customer.email, customer.id))
      found.push({
        kind: 'Customer',
        id: customer.id,
        title: customer.name ?? customer.email,
        detail: `${customer.email} · ${customer.id}`,
        href: buildHash('library', { customer: customer.id })
      })
  for (const license of all.licenses)
    if (matchesQuery(query, license.key, license.id))
      found.push({
        kind: 'License',
        id: license.id,
        title: license.key,
        detail: `${license.id} · ${customerById.get(license.customerId)?.email ?? license.customerId}`,
        href: buildHash('library', { customer: license.customerId })
      })
  return found.slice(0, MAX_SHOWN)
}

/** Find any product, customer or license by name, email, ID or license key (Ctrl+K or /), and go to its screen. */
export function FindAnything({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [all, setAll] = useState<Everything | null>(null)
  const [error, setError] = useState<string | null>(null)
  const dataVersion = useConnection((state) => state.dataVersion)

  useEffect(() => {
    if (!open) return
    let current = true
    const control = requireApi().control
    Promise.all([control.products(), control.customers(), control.licenses()])
      .then(([products, customers, licenses]) => current && setAll({ products, customers, licenses }))
      .catch((reason: unknown) => current && setError(reason instanceof Error ? reason.message : String(reason)))
    return () => {
      current = false
    }
  }, [open, dataVersion])

  const results = all ? search(all, query) : []
  const go = (href: string) => {
    window.location.hash = href
    setQuery('')
    onClose()
  }
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Find"
      description="A product, customer or license by name, email, ID or license key."
      testId="find-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (results[0]) go(results[0].href)
        }}
      >
        <label className="visually-hidden" htmlFor="find-anything">
          Find
        </label>
        <input
          id="find-anything"
          className="input"
          type="search"
          data-autofocus
          value={query}
          maxLength={200}
          placeholder="cus_…, someone@example.test, DEMO1-…, Demo Synth"
          onChange={(event) => setQuery(event.target.value)}
          data-testid="find-input"
        />
      </form>
      {error ? <p className="small">Could not read the data: {error}</p> : null}
      {query.trim() && all ? (
        <ul className="find-results" aria-label="Found">
          {results.length === 0 ? <li className="muted small">Nothing matches.</li> : null}
          {results.map((entry) => (
            <li key={`${entry.kind}-${entry.id}`}>
              <a className="find-results__link" href={entry.href} onClick={() => go(entry.href)}>
                <span className="find-results__kind muted small">{entry.kind}</span>
                <span className="strong">{entry.title}</span>
                <span className="muted small mono">{entry.detail}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  )
}

import type { AuditActor, DeveloperActor } from '../accounts/actor'
import { auditActorId } from '../accounts/actor'
import type { DataVersion } from '../changes/data-version'
import { LEAF_TABLES } from '../changes/data-version'
import { createKeptReads } from '../changes/kept-reads'
import type { Clock } from '../clock/clock'
import { sha256Hex } from '../crypto/digest'
import { newId } from '../crypto/random'
import type { SecretBox } from '../crypto/secret-box'
import { DomainError } from '../errors/domain-error'
import { toProduct } from '../products/product-repository'
import { isVisibleTo } from '../products/products'
import type { Product, ProductService } from '../products/products'
import { previewOf, redactText } from '../redaction/redact'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import type { CredentialAudit } from './credential-audit'
import { newPluginKey, newPluginSecret } from './credential-material'
import type { CredentialMaterial } from './credential-material'
import { recordSourceOf, toCredentialRecord, unrecoverableReasonOf } from './credential-record'
import type { CredentialRecord, CredentialRecordSource, UnrecoverableReason } from './credential-record'
import { createCredentialRepository } from './credential-repository'
import type { CredentialRow, KeyHashMatch } from './credential-repository'
import { labelSealedByCurrentKey } from './sealed-key-labels'

/** `reason` and `metadata`: accepted on every management POST, kept in the audit trail. */
export interface ActionNote {
  reason?: string | undefined
  metadata?: unknown
}

const UNAVAILABLE_MESSAGES: Record<UnrecoverableReason, string> = {
  'not-kept':
    'This credential has no recoverable secret. Rotate the key or the secret to issue a new one, then regenerate packages.',
  'other-runtime-key':
    'This secret was sealed under another runtime key (a copied database or a replaced key file), so this emulator cannot open it. Rotate the key or the secret to get new values, then regenerate packages.',
  'no-runtime-key':
    'The emulator runs without a runtime key, so no secret can be revealed again. Rotate the key or the secret to get new values, then regenerate packages.'
}

/** The largest metadata object kept with an action, serialized. */
export const MAX_METADATA_BYTES = 4096

function checkNote(note: ActionNote | undefined): void {
  if (note?.metadata === undefined) return
  let serialized: string
  try {
    serialized = JSON.stringify(note.metadata)
  } catch {
    // Nesting deep enough to overflow the stack (a 200 KB body of "[[[[..."): a client error, not a 500.
    throw new DomainError('VALIDATION_ERROR', 'metadata is nested too deeply to keep.', {
      details: {
        details: [
          { location: 'body', path: '/metadata', problem: `must be at most ${MAX_METADATA_BYTES} bytes as JSON` }
        ]
      }
    })
  }
  const size = Buffer.byteLength(serialized, 'utf8')
  if (size > MAX_METADATA_BYTES) {
    throw new DomainError('VALIDATION_ERROR', `metadata is ${size} bytes; at most ${MAX_METADATA_BYTES} are kept.`, {
      details: {
        details: [
          { location: 'body', path: '/metadata', problem: `must be at most ${MAX_METADATA_BYTES} bytes as JSON` }
        ]
      }
    })
  }
}

export interface IssuedCredential {
  credential: CredentialRecord
  material: CredentialMaterial
}

export interface CredentialServiceDeps {
  store: Store
  clock: Clock
  products: ProductService
  audit: CredentialAudit
  /** Null when the emulator runs without a runtime key: new secrets are then unrecoverable. */
  secretBox: SecretBox | null
  apiBaseUrl: () => string
  /** Moves on data writes: plugin keys are matched once per version, not once per request. */
  dataVersion: Pick<DataVersion, 'ignoring'>
}

export interface CredentialService {
  list(actor: DeveloperActor, filter?: { productId?: string | undefined }): CredentialRecord[]
  /** The active credential, else the most recent revoked one. */
  current(actor: DeveloperActor, productId: string): CredentialRecord
  create(actor: DeveloperActor, productId: string, note?: ActionNote): IssuedCredential
  ensure(
    actor: DeveloperActor,
    productId: string,
    note?: ActionNote
  ): { credential: CredentialRecord; created: boolean; material: CredentialMaterial | null }
  revealSecret(actor: DeveloperActor, productId: string, note?: ActionNote): IssuedCredential
  rotate(
    actor: DeveloperActor,
    productId: string,
    what: 'key' | 'secret',
    note?: ActionNote
  ): IssuedCredential & { previous: CredentialRecord }
  revoke(
    actor: DeveloperActor,
    productId: string,
    note?: ActionNote
  ): { revoked: boolean; credential: CredentialRecord | null }
  /** Control plane: an active credential with no recoverable secret, as credentials made before recoverable storage are. */
  createLegacy(productId: string): IssuedCredential
  /** Records for any product (control plane and the plugin side; no ownership check). */
  recordsOf(productId: string): CredentialRecord[]
  /** The credential a plugin key belongs to (any status), with its product: the plugin side looks credentials up this way. */
  findByPluginKey(pluginKey: string): { credential: KeyHashMatch['credential']; product: Product } | null
  markUsed(credentialId: string): void
  toRecord(row: CredentialRow): CredentialRecord
}

export function createCredentialService(deps: CredentialServiceDeps): CredentialService {
  const { store, clock, products, audit, secretBox } = deps
  const rows = createCredentialRepository(store)
  labelSealedByCurrentKey(rows, secretBox)
  // Every licensing request matches its plugin key. What a key matches changes only with a write
  // to credentials, products or what they cascade from; a validate's activation stamp and a
  // verify's status record and audit entry never do (no row references those tables), so they
  // leave the kept matches alone.
  const keyMatches = createKeptReads<string, ReturnType<CredentialService['findByPluginKey']>>({
    version: deps.dataVersion.ignoring(...LEAF_TABLES),
    capacity: 1000
  })
  /** When each credential's lastUsedAt was last written, on the emulator clock. */
  const lastMarked = new Map<string, number>()

  const recordOf = (source: CredentialRecordSource): CredentialRecord =>
    toCredentialRecord(source, { apiBaseUrl: deps.apiBaseUrl(), runtimeKeyId: secretBox?.keyId ?? null })
  const toRecord = (row: CredentialRow): CredentialRecord => recordOf(recordSourceOf(row))

  const noteReason = (note: ActionNote | undefined): string | null =>
    note?.reason === undefined ? null : redactText(note.reason)

  /** Inserts a fresh active credential for `product`. Must run inside a transaction. */
  function issue(
    product: Product,
    actor: AuditActor,
    options: { recoverable: boolean; rotatedFromId: string | null }
  ): IssuedCredential {
    const material: CredentialMaterial = {
      appId: product.appId,
      pluginKey: newPluginKey(),
      pluginSecret: newPluginSecret()
    }
    const id = newId('cred')
    const sealedMaterial =
      options.recoverable && secretBox
        ? secretBox.seal(JSON.stringify({ pluginKey: material.pluginKey, pluginSecret: material.pluginSecret }))
        : null
    try {
      rows.insert({
        id,
        productId: product.id,
        appId: product.appId,
        keyHash: sha256Hex(material.pluginKey),
        secretHash: sha256Hex(material.pluginSecret),
        keyPreview: previewOf(material.pluginKey),
        secretPreview: previewOf(material.pluginSecret),
        sealedMaterial,
        sealedKeyId: sealedMaterial === null ? null : (secretBox?.keyId ?? null),
        createdAt: clock.nowIso(),
        createdBy: auditActorId(actor),
        rotatedFromId: options.rotatedFromId
      })
    } catch (error) {
      // The partial unique index is the last word on "one active credential per product".
      if (isUniqueViolation(error)) throw activeExists(product.id)
      throw error
    }
    return { credential: toRecord(rows.byId(id) as CredentialRow), material }
  }

  function requireActive(productId: string): CredentialRow {
    const row = rows.active(productId)
    if (!row) {
      // Reached for a visible product only, so its id is safe to name; say how to get a credential again.
      throw new DomainError(
        'PRODUCT_CREDENTIAL_NOT_FOUND',
        `Product ${shownId(productId, 'prod')} has no active credential (it was revoked, or never created)`,
        {
          recovery: { productId, actions: ['create', 'ensure'], named: true }
        }
      )
    }
    return row
  }

  function create(
    actor: AuditActor,
    product: Product,
    action: 'create' | 'create-legacy',
    note: ActionNote | undefined,
    recoverable: boolean
  ): IssuedCredential {
    const issued = store.transaction(() => {
      if (rows.active(product.id)) throw activeExists(product.id)
      return issue(product, actor, { recoverable, rotatedFromId: null })
    })
    audit.record({
      productId: product.id,
      credentialId: issued.credential.id,
      action,
      outcome: 'success',
      actor,
      reason: note?.reason,
      metadata: note?.metadata
    })
    return issued
  }

  return {
    list(actor, filter = {}) {
      if (filter.productId !== undefined) {
        const product = products.find(filter.productId)
        if (!product || !isVisibleTo(actor, product)) return []
        return rows.list({ productId: product.id }).map(recordOf)
      }
      return rows.list(actor.role === 'admin' ? { all: true } : { developerId: actor.developerId }).map(recordOf)
    },

    current(actor, productId) {
      products.requireVisible(actor, productId)
      const row = rows.active(productId) ?? rows.latest(productId)
      if (!row)
        throw new DomainError(
          'PRODUCT_CREDENTIAL_NOT_FOUND',
          `Product ${shownId(productId, 'prod')} has never had a credential.`
        )
      return toRecord(row)
    },

    create(actor, productId, note) {
      checkNote(note)
      return create(actor, products.requireVisible(actor, productId), 'create', note, true)
    },

    ensure(actor, productId, note) {
      checkNote(note)
      const product = products.requireVisible(actor, productId)
      const outcome = store.transaction(() => {
        const existing = rows.active(product.id)
        if (existing) return { credential: toRecord(existing), created: false, material: null }
        const issued = issue(product, actor, { recoverable: true, rotatedFromId: null })
        return { credential: issued.credential, created: true, material: issued.material }
      })
      if (outcome.created) {
        audit.record({
          productId,
          credentialId: outcome.credential.id,
          action: 'ensure',
          outcome: 'success',
          actor,
          reason: note?.reason,
          metadata: note?.metadata
        })
      }
      return outcome
    },

    revealSecret(actor, productId, note) {
      checkNote(note)
      products.requireVisible(actor, productId)
      const row = requireActive(productId)
      const why = unrecoverableReasonOf(recordSourceOf(row), secretBox?.keyId ?? null)
      const opened = why === null && row.sealed_material && secretBox ? secretBox.open(row.sealed_material) : null
      if (!opened) {
        audit.record({
          productId,
          credentialId: row.id,
          action: 'reveal-secret',
          outcome: 'failure',
          actor,
          reason: note?.reason,
          metadata: note?.metadata
        })
        throw new DomainError('PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE', UNAVAILABLE_MESSAGES[why ?? 'not-kept'], {
          recovery: { productId, actions: ['rotate-key', 'rotate-secret'], named: false }
        })
      }
      const { pluginKey, pluginSecret } = JSON.parse(opened) as { pluginKey: string; pluginSecret: string }
      rows.recordReveal({ id: row.id, at: clock.nowIso(), by: auditActorId(actor) })
      audit.record({
        productId,
        credentialId: row.id,
        action: 'reveal-secret',
        outcome: 'success',
        actor,
        reason: note?.reason,
        metadata: note?.metadata
      })
      return {
        credential: toRecord(rows.byId(row.id) as CredentialRow),
        material: { appId: row.app_id, pluginKey, pluginSecret }
      }
    },

    rotate(actor, productId, what, note) {
      checkNote(note)
      const product = products.requireVisible(actor, productId)
      const cause = what === 'key' ? 'rotate-key' : 'rotate-secret'
      const result = store.transaction(() => {
        const previous = requireActive(productId)
        rows.markRevoked({
          id: previous.id,
          at: clock.nowIso(),
          by: auditActorId(actor),
          reason: noteReason(note),
          cause
        })
        // Both key and secret are replaced in either operation (docs/api.md section 2).
        const issued = issue(product, actor, { recoverable: true, rotatedFromId: previous.id })
        rows.linkReplacement(previous.id, issued.credential.id)
        return { ...issued, previous: toRecord(rows.byId(previous.id) as CredentialRow) }
      })
      audit.record({
        productId,
        credentialId: result.credential.id,
        action: cause,
        outcome: 'success',
        actor,
        reason: note?.reason,
        metadata: note?.metadata
      })
      return result
    },

    revoke(actor, productId, note) {
      checkNote(note)
      products.requireVisible(actor, productId)
      const result = store.transaction(() => {
        const active = rows.active(productId)
        if (!active) {
          const latest = rows.latest(productId)
          return { revoked: false, credential: latest ? toRecord(latest) : null }
        }
        rows.markRevoked({
          id: active.id,
          at: clock.nowIso(),
          by: auditActorId(actor),
          reason: noteReason(note),
          cause: 'revoke'
        })
        return { revoked: true, credential: toRecord(rows.byId(active.id) as CredentialRow) }
      })
      audit.record({
        productId,
        credentialId: result.credential?.id ?? null,
        action: 'revoke',
        outcome: result.revoked ? 'success' : 'noop',
        actor,
        reason: note?.reason,
        metadata: note?.metadata
      })
      return result
    },

    createLegacy(productId) {
      return create({ kind: 'emulator' }, products.require(productId), 'create-legacy', undefined, false)
    },

    recordsOf: (productId) => rows.list({ productId }).map(recordOf),

    findByPluginKey(pluginKey) {
      const keyHash = sha256Hex(pluginKey)
      return keyMatches.read(keyHash, () => {
        const match = rows.matchKeyHash(keyHash)
        return match ? { credential: match.credential, product: toProduct(match.product) } : null
      })
    },

    markUsed(credentialId) {
      // lastUsedAt to the second is plenty; a plugin hammering the API need not write every call.
      const now = clock.now().getTime()
      const previous = lastMarked.get(credentialId)
      if (previous !== undefined && Math.abs(now - previous) < 1000) return
      if (lastMarked.size >= 10_000) lastMarked.clear()
      lastMarked.set(credentialId, now)
      // A stamp a read can do without: dropped while storage refuses writes (docs/api.md section 1).
      store.writeIfPossible(() => rows.touchLastUsed(credentialId, new Date(now).toISOString()))
    },
    toRecord
  }
}

function activeExists(productId: string): DomainError {
  return new DomainError(
    'ACTIVE_CREDENTIAL_EXISTS',
    `Product ${productId} already has an active credential. Use ensure to get it, or rotate-key / rotate-secret to replace it.`
  )
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE'
}

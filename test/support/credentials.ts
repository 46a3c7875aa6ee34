import { expect } from 'vitest'

import type { HttpResult, TestEmulator } from './emulator'

/** Base path of product credential management (docs/api.md section 2). */
export const CREDENTIALS_BASE = '/api/developer/plugin-keys/products'

/** The POST actions under `/:productId/...`; `create` is the POST on `/:productId` itself. */
export const CREDENTIAL_ACTIONS = ['ensure', 'reveal-secret', 'rotate-key', 'rotate-secret', 'revoke'] as const
export type CredentialAction = (typeof CREDENTIAL_ACTIONS)[number]

/** The full credential triple as `one_time_reveal` and reveal-secret return it. */
export interface Material {
  appId: string
  pluginKey: string
  pluginSecret: string
}

export function credentialPath(productId: string, action?: CredentialAction): string {
  return `${CREDENTIALS_BASE}/${encodeURIComponent(productId)}${action ? `/${action}` : ''}`
}

/** The management API as one developer calls it (developer JWT as Bearer). */
export interface ManagementClient {
  token: string
  list(productId?: string): Promise<HttpResult>
  get(productId: string): Promise<HttpResult>
  create(productId: string, body?: unknown): Promise<HttpResult>
  act(productId: string, action: CredentialAction, body?: unknown): Promise<HttpResult>
}

export function managementClient(emulator: TestEmulator, token: string): ManagementClient {
  return {
    token,
    list: (productId) =>
      emulator.request(
        'GET',
        productId === undefined ? CREDENTIALS_BASE : `${CREDENTIALS_BASE}?productId=${encodeURIComponent(productId)}`,
        { token }
      ),
    get: (productId) => emulator.request('GET', credentialPath(productId), { token }),
    create: (productId, body = {}) => emulator.request('POST', credentialPath(productId), { token, body }),
    act: (productId, action, body = {}) => emulator.request('POST', credentialPath(productId, action), { token, body })
  }
}

export interface OwnedProduct {
  developer: { id: string; token: string }
  product: { id: string; appId: string }
  api: ManagementClient
}

/** A fresh developer (role `developer` unless told) owning one fresh product. */
export async function ownedProduct(
  emulator: TestEmulator,
  options: { role?: 'developer' | 'admin'; name?: string } = {}
): Promise<OwnedProduct> {
  const developer = await emulator.createDeveloper({ role: options.role ?? 'developer' })
  const product = await emulator.createProduct(developer.id, options.name)
  return { developer, product, api: managementClient(emulator, developer.token) }
}

/** Creates the first credential of a product (asserting 201) and returns it with its full material. */
export async function issueCredential(
  api: ManagementClient,
  productId: string,
  body: unknown = {}
): Promise<{ credential: Record<string, any>; material: Material }> {
  const created = await api.create(productId, body)
  expect(created.status, created.text).toBe(201)
  const reveal = created.body.one_time_reveal as Record<string, unknown>
  return {
    credential: created.body.credential,
    material: {
      appId: String(reveal.appId),
      pluginKey: String(reveal.pluginKey),
      pluginSecret: String(reveal.pluginSecret)
    }
  }
}

/** Asserts the contract's error envelope: `{ ok:false, error:<CODE>, message:<sentence> }` with the given status. */
export function expectError(result: HttpResult, status: number, code: string): void {
  expect({ status: result.status, error: result.body?.error }, result.text).toEqual({ status, error: code })
  expect(result.body.ok).toBe(false)
  expect(typeof result.body.message).toBe('string')
  expect(result.body.message.length).toBeGreaterThan(0)
  expect(result.headers.get('content-type') ?? '').toMatch(/^application\/json/)
  expect(result.text).not.toMatch(/\bat .+\.(?:ts|js):\d+/) // never a stack trace
}

/** Body of POST /api/plugin-connections/verify. */
export function verifyBody(productId: string, material: Material): Record<string, string> {
  return { productId, appId: material.appId, pluginKey: material.pluginKey, pluginSecret: material.pluginSecret }
}

export const verifyConnection = (emulator: TestEmulator, body: unknown): Promise<HttpResult> =>
  emulator.request('POST', '/api/plugin-connections/verify', { body })

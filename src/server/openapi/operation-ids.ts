/**
 * Each operation's operationId: what a generated client names its method, so each is stable and
 * says what the call does (revealProductCredentialSecret, not a name made from the path). Keyed by
 * method and route path; the OpenAPI plugin refuses to start on a documented route missing here,
 * so a new route cannot ship without one. Two methods of one handler (GET/POST library-token,
 * GET/HEAD downloads) get one id each.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  // Product credentials (management API)
  'GET /api/developer/plugin-keys/products': 'listProductCredentials',
  'GET /api/developer/plugin-keys/products/:productId': 'getProductCredential',
  'POST /api/developer/plugin-keys/products/:productId': 'createProductCredential',
  'POST /api/developer/plugin-keys/products/:productId/ensure': 'ensureProductCredential',
  'POST /api/developer/plugin-keys/products/:productId/reveal-secret': 'revealProductCredentialSecret',
  'POST /api/developer/plugin-keys/products/:productId/rotate-key': 'rotateProductCredentialKey',
  'POST /api/developer/plugin-keys/products/:productId/rotate-secret': 'rotateProductCredentialSecret',
  'POST /api/developer/plugin-keys/products/:productId/revoke': 'revokeProductCredential',
  // Plugin connections
  'POST /api/plugin-connections/verify': 'verifyPluginConnection',
  // Legacy (retired)
  'POST /api/developer/plugin-keys': 'createLegacyPluginKey',
  'POST /api/developer/plugin-keys/reveal-secret': 'revealLegacyPluginSecret',
  'GET /api/developer/plugin-keys/secret': 'getLegacyPluginSecret',
  // Customer library
  'GET /api/library': 'getLibrary',
  'POST /api/library/claim': 'claimLibraryItem',
  'GET /api/library/claim': 'getClaimPage',
  'GET /support': 'getSupportPage',
  // Licensing v1
  'POST /api/license/v1/activate': 'activateLicense',
  'POST /api/license/v1/validate': 'validateLicense',
  'POST /api/license/v1/deactivate': 'deactivateLicense',
  'GET /api/license/v1/library-token': 'getLibraryToken',
  'POST /api/license/v1/library-token': 'createLibraryToken',
  'GET /api/license/v1/webview-library': 'getWebviewLibrary',
  'POST /api/license/v1/webview-library': 'postWebviewLibrary',
  'GET /api/license/v1/public-key': 'getLicensePublicKey',
  // Downloads
  'GET /api/downloads/:fileId': 'downloadFile',
  'HEAD /api/downloads/:fileId': 'headDownloadFile',
  // Keys
  'GET /.well-known/jwks.json': 'getJwks',
  // Emulator control plane
  'GET /_emulator/health': 'getEmulatorHealth',
  'GET /_emulator/info': 'getEmulatorInfo',
  'GET /_emulator/settings': 'getEmulatorSettings',
  'PUT /_emulator/settings': 'updateEmulatorSettings',
  'POST /_emulator/developers': 'createDeveloper',
  'GET /_emulator/developers': 'listDevelopers',
  'POST /_emulator/developers/:id/session': 'createDeveloperSession',
  'POST /_emulator/products': 'createProduct',
  'GET /_emulator/products': 'listProducts',
  'POST /_emulator/products/:id/legacy-credential': 'createLegacyCredential',
  'GET /_emulator/products/:id/credentials': 'listProductCredentialHistory',
  'GET /_emulator/products/:id/audit': 'getProductCredentialAudit',
  'GET /_emulator/products/:id/connection': 'getProductConnectionStatus',
  'POST /_emulator/products/:id/files': 'addProductFile',
  'GET /_emulator/products/:id/files': 'listProductFiles',
  'POST /_emulator/customers': 'createCustomer',
  'GET /_emulator/customers': 'listCustomers',
  'POST /_emulator/customers/:id/session': 'createCustomerSession',
  'POST /_emulator/customers/:id/library-token': 'createCustomerLibraryToken',
  'GET /_emulator/customers/:id/licenses': 'listCustomerLicenses',
  'POST /_emulator/purchases': 'createPurchase',
  'POST /_emulator/reseller-orders': 'createResellerOrder',
  'GET /_emulator/reseller-orders': 'listPendingResellerOrders',
  'PATCH /_emulator/licenses/:id': 'updateLicense',
  'GET /_emulator/licenses/:id': 'getLicense',
  'GET /_emulator/licenses': 'listLicenses',
  'POST /_emulator/licenses/:id/deactivate': 'deactivateLicenseInstance',
  'POST /_emulator/orders/:id/refund': 'refundOrder',
  'POST /_emulator/orders/:id/chargeback': 'chargeBackOrder',
  'GET /_emulator/subscriptions/:id': 'getSubscription',
  'POST /_emulator/subscriptions/:id/renew-now': 'renewSubscriptionNow',
  'POST /_emulator/subscriptions/:id/cancel': 'cancelSubscription',
  'POST /_emulator/subscriptions/:id/resume': 'resumeSubscription',
  'POST /_emulator/subscriptions/:id/payment-fails': 'failSubscriptionPayment',
  'POST /_emulator/subscriptions/:id/payment-succeeds': 'succeedSubscriptionPayment',
  'PUT /_emulator/faults': 'replaceFaultRules',
  'GET /_emulator/faults': 'listFaultRules',
  'DELETE /_emulator/faults': 'clearFaultRules',
  'DELETE /_emulator/faults/:id': 'deleteFaultRule',
  'GET /_emulator/state': 'exportState',
  'PUT /_emulator/state': 'importState',
  'POST /_emulator/state/preview': 'previewState',
  'POST /_emulator/reset': 'resetEmulator',
  'GET /_emulator/presets': 'listPresets',
  'POST /_emulator/presets/:name': 'loadPreset',
  'GET /_emulator/clock': 'getClock',
  'PUT /_emulator/clock': 'setClock',
  'GET /_emulator/upstream': 'getUpstream',
  'PUT /_emulator/upstream': 'setUpstream',
  'POST /_emulator/recordings': 'startRecording',
  'GET /_emulator/recordings': 'listRecordings',
  'GET /_emulator/recordings/:id': 'getRecording',
  'DELETE /_emulator/recordings/:id': 'deleteRecording',
  'POST /_emulator/recordings/:id/stop': 'stopRecording',
  'POST /_emulator/recordings/:id/scenario': 'scenarioFromRecording',
  'GET /_emulator/replay': 'getReplay',
  'PUT /_emulator/replay': 'setReplay',
  'GET /_emulator/requests': 'listRequests',
  'DELETE /_emulator/requests': 'clearRequests',
  'GET /_emulator/requests/stream': 'streamRequests',
  'GET /_emulator/events': 'streamStateChanges',
  'GET /_emulator/requests/har': 'exportRequestsHar',
  'GET /_emulator/requests/:id': 'getRequest',
  'GET /_emulator/drift': 'getDriftReport',
  'DELETE /_emulator/drift': 'clearDriftReport',
  'GET /_emulator/drift/requests': 'listDriftedRequests',
  'GET /_emulator/drift/requests/:id': 'getRequestDrift'
}

/** The global tags, in the order a reader meets them, each with what its operations are for. */
export const TAGS = [
  {
    name: 'Product credentials',
    description:
      'The management API: a developer creates, reads, reveals, rotates and revokes the App ID, plugin key and plugin secret of each product. Developer session token.'
  },
  {
    name: 'Plugin connections',
    description:
      'What a plugin calls first in development: check that product ID, App ID, plugin key and plugin secret belong together.'
  },
  {
    name: 'Licensing v1',
    description:
      'What a plugin calls at run time: activate, validate and deactivate a license, library tokens and the web view library. Product credential headers.'
  },
  {
    name: 'Customer library',
    description:
      "A customer's library as a customer page or a plugin's web view reads it, claims of reseller orders, and the support page."
  },
  {
    name: 'Downloads',
    description: 'Product files behind the download token and a live entitlement, with byte ranges.'
  },
  { name: 'Keys', description: 'The public keys that verify license tokens.' },
  { name: 'Legacy', description: 'Developer-level plugin keys, retired: every call answers 410 with the replacement.' },
  {
    name: 'Emulator',
    description:
      'The control plane, not part of the platform: accounts, purchases, state, presets, clock, faults and the request inspector, for the desktop UI, QA scripts and tests. Admin token.'
  }
] as const

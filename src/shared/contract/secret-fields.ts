/**
 * Body, query and JSON field names whose values are secret whatever they look like (compared
 * lower-case): the server redacts them before anything is stored, and the inspector's "Copy as
 * curl" puts a placeholder where they were.
 */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'pluginkey',
  'pluginsecret',
  'productkey',
  'productsecret',
  'plugin_key',
  'plugin_secret',
  'token',
  'library_token',
  'librarytoken',
  'download_token',
  'downloadtoken',
  'license_token',
  'licensetoken',
  'claim',
  'claim_token',
  'claimtoken',
  'authorization',
  'x-emulator-token',
  'admintoken',
  'password'
])

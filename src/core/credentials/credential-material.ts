import { randomBase62 } from '../crypto/random'

/** The full credential triple a plugin embeds. Only ever returned in a one-time reveal. */
export interface CredentialMaterial {
  appId: string
  pluginKey: string
  pluginSecret: string
}

/** 192 random bits behind `pk_`, so secret scanners can recognise a leaked key. */
export const newPluginKey = (): string => `pk_${randomBase62(24)}`
/** 256 random bits behind `sk_`. */
export const newPluginSecret = (): string => `sk_${randomBase62(32)}`

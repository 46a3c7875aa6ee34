import { useEffect, useState } from 'react'

import {
  CONFIG_FORMATS,
  configFileName,
  configNames,
  CPP_NAMESPACE,
  renderConfig
} from '../../../../shared/plugin-config/runtime-config'
import type { ConfigFormat, RuntimeConfig } from '../../../../shared/plugin-config/runtime-config'
import type { Product } from '../../api/types'
import { Button } from '../../components/Button'
import { Field, TextInput } from '../../components/Field'
import { saveTextFile } from '../../platform/save-file'
import { headerPrefix, requireApi } from '../../stores/connection'
import type { RevealedMaterial } from '../../stores/products'
import { toast } from '../../stores/toasts'

type PublicKey = { hex: string; pem: string }

const ENV_NAMES = configNames('env')
const CPP_NAMES = configNames('cpp')

/** The package runtime config, while the secret is in hand: JSON, .env and a C++ header, with the public key to pin. */
export function ExportConfig({ material, product }: { material: RevealedMaterial; product: Product }) {
  const [environment, setEnvironment] = useState('emulator')
  const [publicKey, setPublicKey] = useState<PublicKey | null>(null)
  const [keyError, setKeyError] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    requireApi()
      .service.publicKey()
      .then((key) => current && setPublicKey({ hex: key.public_key_hex, pem: key.public_key_pem }))
      .catch((error: unknown) => current && setKeyError(error instanceof Error ? error.message : String(error)))
    return () => {
      current = false
    }
  }, [])
  if (!publicKey) {
    return (
      <section className="export" aria-labelledby="export-title">
        <h3 id="export-title" className="subheading">
          Export the package runtime config
        </h3>
        <p className="muted small">
          {keyError ? `Could not read the public key: ${keyError}` : 'Reading the public key…'}
        </p>
      </section>
    )
  }
  const config: RuntimeConfig = {
    appId: material.appId,
    pluginKey: material.pluginKey,
    pluginSecret: material.pluginSecret,
    productId: product.id,
    developerId: product.developerId,
    environment: environment.trim() || 'emulator',
    apiBaseUrl: material.credential.apiBaseUrl,
    headerPrefix: headerPrefix(),
    publicKeyHex: publicKey.hex,
    publicKeyPem: publicKey.pem
  }
  const save = async (format: ConfigFormat) => {
    const spec = CONFIG_FORMATS.find((entry) => entry.format === format)
    const name = configFileName(format, product.name)
    try {
      const saved = await saveTextFile(name, renderConfig(format, config), spec?.mime)
      if (saved) toast.success('Config saved', name)
    } catch (error) {
      toast.error('Could not save the config', error instanceof Error ? error.message : String(error))
    }
  }
  return (
    <section className="export" aria-labelledby="export-title">
      <h3 id="export-title" className="subheading">
        Export the package runtime config
      </h3>
      <p className="muted small" data-testid="export-names">
        App ID, plugin key, plugin secret, product ID, developer ID, environment, API base URL, header prefix and the
        public key to pin (hex and PEM). The .env file names them as the native client reads them{' '}
        <span data-testid="export-names-env">
          (<code className="mono">{ENV_NAMES[0]}</code> … <code className="mono">{ENV_NAMES.at(-1)}</code>)
        </span>
        , the C++ header as constants in <code className="mono">{CPP_NAMESPACE}</code>{' '}
        <span data-testid="export-names-cpp">
          (<code className="mono">{CPP_NAMES[0]}</code> … <code className="mono">{CPP_NAMES.at(-1)}</code>)
        </span>
        . Never the developer session token.
      </p>
      <div className="export__row">
        <Field label="Environment" className="export__env">
          {(control) => (
            <TextInput
              {...control}
              value={environment}
              onChange={(event) => setEnvironment(event.target.value)}
              maxLength={40}
            />
          )}
        </Field>
        <div className="export__buttons" role="group" aria-label="Download config as">
          {CONFIG_FORMATS.map((entry) => (
            <Button
              key={entry.format}
              icon="download"
              onClick={() => void save(entry.format)}
              data-testid={`export-${entry.format}`}
            >
              {entry.label}
            </Button>
          ))}
        </div>
      </div>
    </section>
  )
}

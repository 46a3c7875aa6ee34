import type { CredentialAction } from '../../stores/products'

/** What each management action is called, what it does, and how carefully to ask. */
export interface ActionCopy {
  label: string
  title: string
  description: string
  confirmLabel: string
  destructive: boolean
  /** Title of the reveal dialog that follows, when the action answers the full material. */
  revealTitle?: string
  done: string
}

export const ACTION_COPY: Record<CredentialAction, ActionCopy> = {
  create: {
    label: 'Create credential',
    title: 'Create the credential',
    description:
      'Issues the App ID, plugin key and plugin secret for this product. The full secret is shown once, right after.',
    confirmLabel: 'Create',
    destructive: false,
    revealTitle: 'Credential created',
    done: 'Credential created'
  },
  ensure: {
    label: 'Ensure',
    title: 'Ensure an active credential',
    description:
      'Creates a credential only if none is active. An existing one is left as it is and its secret is not shown.',
    confirmLabel: 'Ensure',
    destructive: false,
    revealTitle: 'Credential created',
    done: 'Credential ensured'
  },
  'reveal-secret': {
    label: 'Reveal secret',
    title: 'Reveal the full key and secret',
    description:
      'Shows the full plugin key and plugin secret of the active credential. The reveal is recorded in the audit trail.',
    confirmLabel: 'Reveal',
    destructive: false,
    revealTitle: 'Secret revealed',
    done: 'Secret revealed'
  },
  'rotate-key': {
    label: 'Rotate key',
    title: 'Rotate the plugin key?',
    description:
      'A planned rotation (a release cycle, a key that shipped in a retired build, someone leaving): the audit trail records it as a key rotation. The current credential is revoked and a new plugin key and secret are issued (the App ID stays). Plugins built with the old values stop working until their packages are regenerated.',
    confirmLabel: 'Rotate key',
    destructive: true,
    revealTitle: 'Key rotated',
    done: 'Key rotated'
  },
  'rotate-secret': {
    label: 'Rotate secret',
    title: 'Rotate the plugin secret?',
    description:
      'When the secret leaked, was lost or cannot be revealed again: the audit trail records it as a secret rotation, the incident. Like Rotate key, it revokes the current credential and issues a new plugin key and secret (the App ID stays). Packages must be regenerated.',
    confirmLabel: 'Rotate secret',
    destructive: true,
    revealTitle: 'Secret rotated',
    done: 'Secret rotated'
  },
  revoke: {
    label: 'Revoke',
    title: 'Revoke the credential?',
    description:
      'The active credential stops working at once: connection verification and licensing calls with it fail until a new credential is issued and packages are regenerated.',
    confirmLabel: 'Revoke',
    destructive: true,
    done: 'Credential revoked'
  }
}

/** Export from the Credentials screen: a reveal (recorded), then the export in the dialog that follows. */
export const EXPORT_COPY: ActionCopy = {
  label: 'Export',
  title: 'Export the runtime config',
  description:
    'Reveals the active credential (the reveal is recorded in the audit trail) and offers it as JSON, a .env file or a C++ header, with the public key a client pins, in the names the native client reads.',
  confirmLabel: 'Reveal and export',
  destructive: false,
  revealTitle: 'Export the runtime config',
  done: 'Ready to export'
}

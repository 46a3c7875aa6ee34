import { useEffect, useState } from 'react'

import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card, KeyValue } from '../../components/Card'
import { CopyButton } from '../../components/CopyButton'
import { Skeleton } from '../../components/Skeleton'
import { buildHash } from '../../navigation/routes'
import { useConnection } from '../../stores/connection'
import { useServerLink } from '../../stores/server-link'

interface DesktopInfo {
  dataDir: string
  runtimeKeyProtection: 'safeStorage' | 'file'
}

/** Is it running, where, with which settings, and where the data lives. */
export function ServerCard() {
  const info = useConnection((state) => state.info.data)
  const desktop = useConnection((state) => state.desktop)
  const link = useServerLink((state) => state.state)
  const [desktopInfo, setDesktopInfo] = useState<DesktopInfo | null>(null)

  useEffect(() => {
    if (!desktop || !window.emulatorDesktop) return
    window.emulatorDesktop
      .appInfo()
      .then((value) => setDesktopInfo({ dataDir: value.dataDir, runtimeKeyProtection: value.runtimeKeyProtection }))
      .catch(() => setDesktopInfo(null))
  }, [desktop])

  const line = (width: number) => <Skeleton width={width} height="1.1em" />
  return (
    <Card
      title="Server"
      actions={
        link === 'disconnected' ? (
          <Badge tone="danger">Not answering</Badge>
        ) : link === 'reconnecting' ? (
          <Badge tone="warning">Reconnecting</Badge>
        ) : info ? (
          <Badge tone="success">Running</Badge>
        ) : (
          <Skeleton width={64} height={22} radius={999} />
        )
      }
      testId="server-card"
    >
      <KeyValue
        items={[
          {
            label: 'Base URL',
            value: info ? (
              <span className="inline-actions">
                <code className="mono" data-testid="base-url">
                  {info.baseUrl}
                </code>
                <CopyButton value={info.baseUrl} what="base URL" />
              </span>
            ) : (
              line(260)
            )
          },
          {
            label: 'Credential headers',
            value: info ? (
              <span className="stack stack--tight">
                <span>
                  Prefix <code className="mono">{info.settings.headerPrefix}</code>{' '}
                  {info.settings.strict ? (
                    <Badge tone="warning" title="Error reasons are hidden, as in production">
                      strict
                    </Badge>
                  ) : (
                    <Badge tone="info" title="Errors say which value is wrong">
                      debug reasons on
                    </Badge>
                  )}
                </span>
                <span className="muted small mono">
                  {info.credentialHeaders.appId}, {info.credentialHeaders.pluginKey},{' '}
                  {info.credentialHeaders.pluginSecret}
                </span>
              </span>
            ) : (
              line(300)
            )
          },
          {
            label: 'Data',
            value: info ? (
              <span className="stack stack--tight">
                <code className="mono break">{info.databasePath}</code>
                {desktopInfo ? (
                  <span className="inline-actions">
                    <span className="muted small">
                      Runtime key kept{' '}
                      {desktopInfo.runtimeKeyProtection === 'safeStorage'
                        ? 'in the OS keychain (safeStorage)'
                        : 'in a file beside the data'}
                    </span>
                    <Button size="sm" icon="folder" onClick={() => void window.emulatorDesktop?.openDataFolder()}>
                      Open data folder
                    </Button>
                  </span>
                ) : null}
              </span>
            ) : (
              line(340)
            )
          },
          {
            label: 'Secret recovery',
            value: info ? (
              info.hasRuntimeKey ? (
                <span>New secrets are recoverable (reveal-secret works).</span>
              ) : (
                <span>
                  <Badge tone="warning">no runtime key</Badge> New secrets are shown once and cannot be revealed again.
                </span>
              )
            ) : (
              line(280)
            )
          },
          {
            label: 'Settings',
            value: <a href={buildHash('scenarios')}>Change header prefix, strict mode, clock…</a>
          }
        ]}
      />
    </Card>
  )
}

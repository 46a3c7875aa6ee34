import { useId } from 'react'

import { Button, IconButton } from '../../components/Button'
import { Card } from '../../components/Card'
import { Checkbox, Field, Select, TextInput } from '../../components/Field'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { newInstanceId, useTester } from '../../stores/tester'
import { toast } from '../../stores/toasts'

/** What the plugin sends with activate, validate and deactivate. */
export function LicenseForm() {
  const license = useTester((state) => state.license)
  const setLicense = useTester((state) => state.setLicense)
  const productId = useTester((state) => state.values.productId)
  const options = useTester((state) => state.licenses.data)
  const createTestLicense = useTester((state) => state.createTestLicense)
  const { busy, error, run } = useAction<'create'>()
  const listId = useId()

  return (
    <Card
      title="License and machine"
      description="The serial the customer typed, and this installation."
      testId="tester-license"
    >
      <div className="stack">
        <Field
          label="License key"
          hint={
            options && options.length > 0
              ? `${options.length} ${options.length === 1 ? 'license' : 'licenses'} of this product to pick from.`
              : 'No license of this product yet: create a test one.'
          }
        >
          {(control) => (
            <>
              <TextInput
                {...control}
                className="mono"
                list={listId}
                value={license.licenseKey}
                onChange={(event) => setLicense({ licenseKey: event.target.value })}
                placeholder="XXXXX-XXXXX-…"
                data-testid="tester-license-key"
              />
              <datalist id={listId}>
                {(options ?? []).map((option) => (
                  <option key={option.key} value={option.key}>
                    {option.label}
                  </option>
                ))}
              </datalist>
            </>
          )}
        </Field>
        <div className="inline-actions">
          <Button
            size="sm"
            icon="plus"
            busy={busy === 'create'}
            disabled={!productId.trim()}
            disabledReason="Fill in the product ID first: the test license is for that product."
            onClick={() =>
              void run('create', async () => {
                toast.success('Test license created', await createTestLicense())
              })
            }
          >
            Create a test license
          </Button>
        </div>
        <InlineError error={error} />
        <Field label="Instance ID" hint="A stable ID of this machine or installation.">
          {(control) => (
            <div className="input-with-button">
              <TextInput
                {...control}
                className="mono"
                value={license.instanceId}
                onChange={(event) => setLicense({ instanceId: event.target.value })}
                data-testid="tester-instance-id"
              />
              <IconButton
                icon="refresh"
                label="New instance ID"
                onClick={() => setLicense({ instanceId: newInstanceId() })}
              />
            </div>
          )}
        </Field>
        <Field label="Instance name">
          {(control) => (
            <TextInput
              {...control}
              value={license.instanceName}
              onChange={(event) => setLicense({ instanceName: event.target.value })}
            />
          )}
        </Field>
        <div className="form-row">
          <Field label="Platform">
            {(control) => (
              <Select
                {...control}
                value={license.platform}
                onChange={(event) => setLicense({ platform: event.target.value })}
              >
                <option value="macos">macOS</option>
                <option value="windows">Windows</option>
                <option value="linux">Linux</option>
                <option value="">(not sent)</option>
              </Select>
            )}
          </Field>
          <Field label="App version">
            {(control) => (
              <TextInput
                {...control}
                value={license.appVersion}
                onChange={(event) => setLicense({ appVersion: event.target.value })}
              />
            )}
          </Field>
        </div>
        <Checkbox
          label="Send a nonce"
          hint=" and check that the license token echoes it"
          checked={license.sendNonce}
          onChange={(event) => setLicense({ sendNonce: event.target.checked })}
        />
      </div>
    </Card>
  )
}

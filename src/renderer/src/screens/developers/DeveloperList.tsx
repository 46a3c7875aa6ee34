import { useState } from 'react'

import type { Developer, DeveloperRole } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { CreateForm } from '../../components/CreateForm'
import { Field, Select, TextInput } from '../../components/Field'
import { LongValue } from '../../components/LongValue'
import { ResourceTable } from '../../components/ResourceTable'
import { EmptyState } from '../../components/States'
import type { Column } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { useAction } from '../../components/use-action'
import { useDevelopers } from '../../stores/developers'
import { toast } from '../../stores/toasts'

/** Offered in the form, to change or keep: the next free "Studio N" and its email. */
function defaultsFor(developers: readonly Developer[] | null): { name: string; email: string } {
  const taken = new Set((developers ?? []).map((developer) => developer.email.toLowerCase()))
  let n = (developers?.length ?? 0) + 1
  while (taken.has(`developer${n}@example.test`)) n++
  return { name: `Studio ${n}`, email: `developer${n}@example.test` }
}

function CreateDeveloperForm() {
  const create = useDevelopers((state) => state.create)
  const developers = useDevelopers((state) => state.developers.data)
  const [email, setEmail] = useState<string | null>(null)
  const [name, setName] = useState<string | null>(null)
  const offered = defaultsFor(developers)
  const [role, setRole] = useState<DeveloperRole>('developer')
  const { busy, error, run } = useAction<'create'>()
  return (
    <CreateForm
      label="Create a developer"
      className="form-grid--developer"
      submitLabel="Create developer"
      busy={busy !== null}
      error={error}
      onSubmit={() => {
        const chosenName = (name ?? offered.name).trim()
        void run('create', async () => {
          const developer = await create({
            email: (email ?? offered.email).trim(),
            name: chosenName || undefined,
            role
          })
          toast.success(
            `Now acting as ${developer.name ?? developer.email}`,
            `Developer created${developer.role === 'admin' ? ' (admin)' : ''}: ${developer.email}. New products belong to them.`
          )
          // Back to the next defaults.
          setEmail(null)
          setName(null)
        })
      }}
    >
      <Field label="Email">
        {(control) => (
          <TextInput
            {...control}
            type="email"
            required
            value={email ?? offered.email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <Field label="Name">
        {(control) => (
          <TextInput
            {...control}
            value={name ?? offered.name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Optional"
          />
        )}
      </Field>
      <Field label="Role">
        {(control) => (
          <Select {...control} value={role} onChange={(e) => setRole(e.target.value as DeveloperRole)}>
            <option value="developer">Developer</option>
            <option value="admin">Admin (sees every product)</option>
          </Select>
        )}
      </Field>
    </CreateForm>
  )
}

/** Every developer; pick the one to act as. */
export function DeveloperList() {
  const developers = useDevelopers((state) => state.developers)
  const actingId = useDevelopers((state) => state.actingId)
  const setActing = useDevelopers((state) => state.setActing)
  const load = useDevelopers((state) => state.load)

  const columns: Column<Developer>[] = [
    {
      key: 'name',
      header: 'Developer',
      sortValue: (developer) => developer.name ?? developer.email,
      render: (developer) => (
        <span className="stack stack--tight cell-clip">
          <span className="strong clip" title={developer.name ?? developer.email}>
            {developer.name ?? developer.email}
          </span>
          <span className="muted small">
            <LongValue value={developer.email} what={`address of ${developer.name ?? developer.email}`} mono={false} />
          </span>
        </span>
      ),
      skeletonWidth: '80%'
    },
    {
      key: 'role',
      header: 'Role',
      width: 110,
      render: (developer) => <Badge tone={developer.role === 'admin' ? 'accent' : 'neutral'}>{developer.role}</Badge>,
      skeletonWidth: 60
    },
    {
      key: 'created',
      header: 'Created',
      width: 130,
      render: (developer) => <RelativeTime value={developer.createdAt} />,
      sortValue: (developer) => developer.createdAt
    },
    {
      key: 'act',
      header: <span className="visually-hidden">Act as</span>,
      width: 120,
      align: 'right',
      render: (developer) =>
        developer.id === actingId ? (
          <Badge tone="success">acting</Badge>
        ) : (
          <Button
            size="sm"
            onClick={() => setActing(developer.id)}
            aria-label={`Act as ${developer.name ?? developer.email}`}
          >
            Act as
          </Button>
        ),
      skeletonWidth: 60
    }
  ]

  return (
    <Card
      title="Developers"
      description="The acting developer calls the management API with their own session token."
      testId="developer-list"
    >
      <ResourceTable
        resource={developers}
        rows={developers.data}
        failedTitle="Could not list developers"
        onRetry={() => void load()}
        caption="Developers"
        columns={columns}
        loading={developers.status === 'loading' || developers.status === 'idle'}
        skeletonRows={3}
        rowKey={(developer) => developer.id}
        selectedKey={actingId}
        rowTestId={(developer) => `developer-${developer.id}`}
        empty={
          <EmptyState compact title="No developers yet">
            Create one below: it owns products and their credentials.
          </EmptyState>
        }
      />
      <h3 className="subheading">New developer</h3>
      <CreateDeveloperForm />
    </Card>
  )
}

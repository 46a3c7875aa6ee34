import type { LibraryPayload } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card, KeyValue } from '../../components/Card'
import { CopyButton } from '../../components/CopyButton'
import { ShowMore, useShownRows } from '../../components/ShowMore'
import { DateTime, RelativeTime } from '../../components/Time'

const yesNo = (value: boolean) => (value ? <Badge tone="success">subscribed</Badge> : <Badge tone="neutral">off</Badge>)

/** Profile, marketing preferences and support: the account side of the library. */
export function AccountGroup({ payload }: { payload: LibraryPayload }) {
  const { profile, marketing_preferences: preferences, support } = payload
  // One contact per owned product: a large library's first ones, as its other groups do.
  const contacts = useShownRows(support.product_contacts)
  return (
    <div className="grid grid--3 library-account">
      <Card title="Profile" testId="library-profile">
        <KeyValue
          items={[
            { label: 'Name', value: profile.name ?? <span className="muted">—</span> },
            { label: 'Email', value: <span className="library-account__value">{profile.email}</span> },
            { label: 'Country', value: profile.country ?? <span className="muted">—</span> },
            { label: 'Locale', value: profile.locale ?? <span className="muted">—</span> },
            { label: 'Member since', value: <DateTime value={profile.member_since} /> },
            {
              label: 'Customer ID',
              value: <code className="mono small library-account__value">{profile.customer_id}</code>
            }
          ]}
        />
      </Card>
      <Card title="Preferences" testId="library-preferences">
        <KeyValue
          items={[
            { label: 'Newsletter', value: yesNo(preferences.newsletter) },
            { label: 'Product updates', value: yesNo(preferences.product_updates) },
            { label: 'Updated', value: <RelativeTime value={preferences.updated_at} /> }
          ]}
        />
      </Card>
      <Card title="Support" testId="library-support">
        <KeyValue
          items={[
            {
              label: 'Reference',
              value: <code className="mono small library-account__value">{support.customer_reference}</code>
            },
            { label: 'Contact', value: <span className="library-account__value">{support.contact_email}</span> },
            { label: 'Help', value: <code className="mono small library-account__value">{support.help_url}</code> },
            {
              label: 'Download token',
              value: (
                <span className="inline-actions">
                  <code className="mono small">{payload.download_token.slice(0, 12)}…</code>
                  <CopyButton value={payload.download_token} what="download token" iconOnly variant="ghost" />
                </span>
              )
            },
            ...contacts.shown.map((contact) => ({
              key: contact.product_id,
              label: contact.product_name,
              value: <span className="small library-account__value">{contact.email}</span>
            }))
          ]}
        />
        <ShowMore rows={contacts} what="product contacts" />
      </Card>
    </div>
  )
}

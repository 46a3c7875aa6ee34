import { Card } from '../../components/Card'
import { Icon } from '../../components/Icon'
import { buildHash } from '../../navigation/routes'
import { openExternal } from '../../platform/save-file'
import { useConnection } from '../../stores/connection'

/** Where people usually go next. */
export function QuickLinks() {
  const baseUrl = useConnection((state) => state.baseUrl) ?? ''
  const links = [
    {
      href: buildHash('credentials'),
      title: 'Issue or rotate a credential',
      text: 'App ID, plugin key and secret per product; export the package config.'
    },
    {
      href: buildHash('tester'),
      title: 'Test a plugin connection',
      text: 'Verify the four values, then activate, validate and deactivate.'
    },
    {
      href: buildHash('library'),
      title: "Open a customer's library",
      text: 'Products, licenses and activations as the customer sees them.'
    },
    { href: buildHash('requests'), title: 'Watch requests live', text: 'Everything a plugin sends, redacted.' }
  ]
  return (
    <Card title="Quick links" testId="quick-links">
      <ul className="quick-links">
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} className="quick-link">
              <span className="quick-link__title">{link.title}</span>
              <span className="quick-link__text">{link.text}</span>
            </a>
          </li>
        ))}
      </ul>
      <p className="quick-links__external">
        <button type="button" className="link-button" onClick={() => openExternal(`${baseUrl}/openapi.json`)}>
          OpenAPI document <Icon name="external" size={12} />
        </button>
        <button type="button" className="link-button" onClick={() => openExternal(`${baseUrl}/.well-known/jwks.json`)}>
          Signing keys (JWKS) <Icon name="external" size={12} />
        </button>
        <a href={buildHash('scenarios')}>Load a preset</a>
      </p>
    </Card>
  )
}

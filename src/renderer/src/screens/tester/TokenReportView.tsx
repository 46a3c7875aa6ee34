import { Icon } from '../../components/Icon'
import { JsonView } from '../../components/JsonView'
import type { LicenseTokenReport } from '../../tokens/license-token'

/** The decoded license token and each verification check, pass or fail, with what was found. */
export function TokenReportView({ report }: { report: LicenseTokenReport }) {
  return (
    <div className="token-report" data-testid="token-report">
      <p className={`token-report__verdict ${report.valid ? 'is-valid' : 'is-invalid'}`} data-testid="token-verdict">
        <Icon name={report.valid ? 'check' : 'alert'} size={18} />
        {report.valid
          ? report.signatureValid
            ? 'Signature verified (Ed25519, JWKS) and every claim checks out.'
            : 'Every claim checks out.'
          : 'The token does not pass every check: a plugin must not trust it.'}
      </p>
      <ul className="checks">
        {report.checks.map((check) => (
          <li key={check.id} className={`check check--${check.outcome}`}>
            <Icon name={check.outcome === 'pass' ? 'check' : check.outcome === 'fail' ? 'close' : 'info'} size={14} />
            <span className="check__label">{check.label}</span>
            <span className="check__detail">{check.detail}</span>
          </li>
        ))}
      </ul>
      <div className="grid grid--2 grid--tight">
        <div>
          <h3 className="subheading">Header</h3>
          <JsonView value={report.header} label="License token header" maxHeight={200} />
        </div>
        <div>
          <h3 className="subheading">Claims</h3>
          <JsonView value={report.claims} label="License token claims" maxHeight={200} />
        </div>
      </div>
    </div>
  )
}

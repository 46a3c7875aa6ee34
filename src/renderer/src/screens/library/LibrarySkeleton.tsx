import { Card } from '../../components/Card'
import { Skeleton, SkeletonLines } from '../../components/Skeleton'

/** The library's shape while it loads: a product card, a license table, two small panels. */
export function LibrarySkeleton() {
  return (
    <div className="stack stack--loose" aria-busy="true" aria-label="Loading the library">
      <Card title="Products">
        <div className="product-grid">
          {[0, 1].map((index) => (
            <div className="product-card" key={index} aria-hidden="true">
              <Skeleton width="50%" height="1.2em" />
              <SkeletonLines lines={2} widths={['70%', '40%']} />
              <Skeleton width="100%" height={32} radius={6} />
            </div>
          ))}
        </div>
      </Card>
      <Card title="Licenses">
        <div aria-hidden="true" className="stack">
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} width="100%" height={36} radius={6} />
          ))}
        </div>
      </Card>
    </div>
  )
}

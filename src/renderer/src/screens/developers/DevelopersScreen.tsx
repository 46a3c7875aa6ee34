import { useEffect } from 'react'

import { useConnection } from '../../stores/connection'
import { useDevelopers } from '../../stores/developers'
import { useProducts } from '../../stores/products'
import { DeveloperList } from './DeveloperList'
import { ProductList } from './ProductList'

export function DevelopersScreen() {
  const actingId = useDevelopers((state) => state.actingId)
  const dataVersion = useConnection((state) => state.dataVersion)
  const load = useProducts((state) => state.load)
  useEffect(() => {
    void load()
  }, [load, actingId, dataVersion])
  return (
    <div className="screen grid grid--developers" data-testid="developers-screen">
      <DeveloperList />
      <ProductList />
    </div>
  )
}

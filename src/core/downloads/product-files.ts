import { FILE_EXTENSIONS } from '../../shared/contract/downloads'
import type { FilePlatform } from '../../shared/contract/downloads'
import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import type { ProductService } from '../products/products'
import type { ProductFile, ProductFileRepository } from './product-file-repository'

export interface ProductFileService {
  add(input: {
    productId: string
    version: string
    platform: FilePlatform
    sizeBytes: number
    filename?: string | undefined
  }): ProductFile
  find(id: string): ProductFile | null
  forProduct(productId: string): ProductFile[]
}

export function createProductFileService(deps: {
  files: ProductFileRepository
  products: ProductService
  clock: Clock
}): ProductFileService {
  const { files, products, clock } = deps
  return {
    add(input) {
      const product = products.require(input.productId)
      const slug = product.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'plugin'
      const file: ProductFile = {
        id: newId('file'),
        productId: input.productId,
        version: input.version,
        platform: input.platform,
        filename: input.filename ?? `${slug}-${input.version}-${input.platform}.${FILE_EXTENSIONS[input.platform]}`,
        sizeBytes: input.sizeBytes,
        createdAt: clock.nowIso()
      }
      files.insert(file)
      return file
    },
    find: (id) => files.byId(id),
    forProduct: (productId) => files.byProduct(productId)
  }
}

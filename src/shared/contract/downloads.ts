/** The platforms a downloadable build is made for. */
export const FILE_PLATFORMS = ['windows', 'macos', 'linux'] as const
export type FilePlatform = (typeof FILE_PLATFORMS)[number]

/** The file extension of a generated build's default name, by platform. */
export const FILE_EXTENSIONS: Readonly<Record<FilePlatform, string>> = { windows: 'exe', macos: 'pkg', linux: 'tar.gz' }

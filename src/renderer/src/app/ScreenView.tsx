import type { Route } from '../navigation/routes'
import { CredentialsScreen } from '../screens/credentials/CredentialsScreen'
import { DevelopersScreen } from '../screens/developers/DevelopersScreen'
import { DriftScreen } from '../screens/drift/DriftScreen'
import { LibraryScreen } from '../screens/library/LibraryScreen'
import { OverviewScreen } from '../screens/overview/OverviewScreen'
import { RecordingsScreen } from '../screens/recordings/RecordingsScreen'
import { RequestsScreen } from '../screens/requests/RequestsScreen'
import { ScenariosScreen } from '../screens/scenarios/ScenariosScreen'
import { TesterScreen } from '../screens/tester/TesterScreen'

/** The router's table: one screen per route. */
export function ScreenView({ route }: { route: Route }) {
  switch (route.screen) {
    case 'overview':
      return <OverviewScreen />
    case 'developers':
      return <DevelopersScreen />
    case 'credentials':
      return <CredentialsScreen params={route.params} />
    case 'tester':
      return <TesterScreen params={route.params} />
    case 'library':
      return <LibraryScreen params={route.params} />
    case 'requests':
      return <RequestsScreen params={route.params} />
    case 'drift':
      return <DriftScreen />
    case 'recordings':
      return <RecordingsScreen />
    case 'scenarios':
      return <ScenariosScreen />
  }
}

// quaver-snapcast-plugin on its own, for the tests (a release installs it as a link to quaver).
import SnapcastPlugin

try runSnapcastPlugin()

// quaverd on its own, for the tests and the bench (a release installs it as a link to quaver).
import quaverd

runQuaverd()

// What the `weft` entry does on import: the four built-in protocols become known by name and to detection.
import '../src/protocols/index'

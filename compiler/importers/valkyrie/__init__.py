from compiler.importers.valkyrie.tiles import *

from .blocks import Tower

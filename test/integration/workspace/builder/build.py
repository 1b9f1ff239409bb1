from .modeling import Tower


def build_tower_small():
    return Tower(dim=8, depth=2)


def build_tower_large():
    return Tower(dim=16, depth=3)

// placeholder until this directory has sources

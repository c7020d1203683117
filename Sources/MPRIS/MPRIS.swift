// MPRIS: see Package.swift for the layer this module belongs to.

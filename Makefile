# Thin front door; the scripts do the work so that a machine without make can run them too.
PREFIX ?= $(HOME)/.local

.PHONY: build test demo
build:
	swift build -c release

test:
	scripts/test

demo:
	scripts/demo

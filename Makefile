# Front door for building, installing and testing. The scripts do the heavy lifting so a machine
# without make can run them too (README: scripts/demo and scripts/test).
PREFIX ?= $(HOME)/.local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
BUILD = .build/release

INSTALLED = $(BINDIR)/quaverd $(BINDIR)/quaver \
	$(DATADIR)/systemd/user/quaverd.service \
	$(DATADIR)/dbus-1/services/org.mpris.MediaPlayer2.quaver.service \
	$(DATADIR)/applications/quaver.desktop \
	$(DATADIR)/bash-completion/completions/quaver \
	$(DATADIR)/zsh/site-functions/_quaver \
	$(DATADIR)/fish/vendor_completions.d/quaver.fish

.PHONY: build test demo bench install install-files uninstall
build:
	swift build -c release --product quaverd
	swift build -c release --product quaver

test:
	scripts/test

demo:
	scripts/demo

bench:
	scripts/bench

install: build install-files

# The unit and the activation file name the installed daemon, so they follow PREFIX.
# (Separate from `install` so tests can install the debug build: make install-files BUILD=.build/debug.)
install-files:
	install -Dm755 $(BUILD)/quaverd $(BINDIR)/quaverd
	install -Dm755 $(BUILD)/quaver $(BINDIR)/quaver
	# Debug info is most of a static release binary's size; the symbols stay for backtraces.
	strip --strip-debug $(BINDIR)/quaverd $(BINDIR)/quaver
	install -d $(DATADIR)/systemd/user $(DATADIR)/dbus-1/services $(DATADIR)/applications
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/quaverd|' systemd/quaverd.service \
		> $(DATADIR)/systemd/user/quaverd.service
	sed 's|^Exec=.*|Exec=$(BINDIR)/quaverd|' dbus/org.mpris.MediaPlayer2.quaver.service \
		> $(DATADIR)/dbus-1/services/org.mpris.MediaPlayer2.quaver.service
	sed 's|^Exec=quaver |Exec=$(BINDIR)/quaver |' dbus/quaver.desktop > $(DATADIR)/applications/quaver.desktop
	install -d $(DATADIR)/bash-completion/completions $(DATADIR)/zsh/site-functions \
		$(DATADIR)/fish/vendor_completions.d
	$(BUILD)/quaver --generate-completion-script bash > $(DATADIR)/bash-completion/completions/quaver
	$(BUILD)/quaver --generate-completion-script zsh > $(DATADIR)/zsh/site-functions/_quaver
	$(BUILD)/quaver --generate-completion-script fish > $(DATADIR)/fish/vendor_completions.d/quaver.fish

uninstall:
	rm -f $(INSTALLED)

# Front door for building, installing, packaging and testing. The scripts do the heavy lifting so a machine
# without make can run them too (README: scripts/demo and scripts/test).
PREFIX ?= $(HOME)/.local
# Staging root for packages: files go to $(DESTDIR)$(PREFIX)/…, while the unit and the activation file
# name $(PREFIX)/bin/quaverd, where the daemon is once installed.
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/quaver
# Where quaver looks for libquaver-taglib.so, which it loads at the first tag read: ../lib/quaver from its own folder.
LIBDIR = $(PREFIX)/lib/quaver
# Swift's backtracer for statically linked programs, from the toolchain that builds Quaver.
SWIFT_BACKTRACER ?= $(dir $(realpath $(shell command -v swiftc || echo /opt/swift/usr/bin/swiftc)))../libexec/swift/linux/swift-backtrace-static
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
DOCDIR = $(DATADIR)/doc/quaver
# systemd reads user units from ~/.local/share/systemd/user and /usr/lib/systemd/user (the package's).
SYSTEMD_USER_DIR ?= $(DATADIR)/systemd/user
ZSH_COMPLETIONS ?= $(DATADIR)/zsh/site-functions
BUILD = .build/release

INSTALLED = $(BINDIR)/quaverd $(BINDIR)/quaver $(BINDIR)/quaver-snapcast-plugin $(LIBEXECDIR)/swift-backtrace \
	$(LIBDIR)/libquaver-taglib.so \
	$(SYSTEMD_USER_DIR)/quaverd.service \
	$(DATADIR)/dbus-1/services/org.mpris.MediaPlayer2.quaver.service \
	$(DATADIR)/applications/quaver.desktop \
	$(DATADIR)/applications/org.quaver.Quaver.desktop \
	$(DATADIR)/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini \
	$(DATADIR)/bash-completion/completions/quaver \
	$(ZSH_COMPLETIONS)/_quaver \
	$(DATADIR)/fish/vendor_completions.d/quaver.fish \
	$(MANDIR)/man1/quaver.1 $(MANDIR)/man1/quaverd.1 $(MANDIR)/man1/quaver-snapcast-plugin.1 \
	$(DOCDIR)/config.example.toml

.PHONY: build test demo bench install install-files uninstall deb
# One program: quaverd and quaver-snapcast-plugin are links to quaver, which runs as the name it is called by.
build:
	swift build -c release --product quaver
	swift build -c release --product quaver-taglib
	# swiftc links every library it makes against the Swift runtime; this one uses none of it (CTagLib's
	# swift_image.cpp), and an installed Quaver has no libswiftCore.so: that entry and the search paths go.
	patchelf --remove-needed libswiftCore.so --remove-rpath $(BUILD)/libquaver-taglib.so

test:
	scripts/test

demo:
	scripts/demo

bench:
	scripts/bench

install: build install-files

# quaver_<version>_amd64.deb in .build/, from the release build.
deb: build
	scripts/package-deb $(BUILD) .build

# The unit and the activation file name the installed daemon, so they follow PREFIX.
# (Separate from `install` so tests can install the debug build: make install-files BUILD=.build/debug.)
install-files:
	install -Dm755 $(BUILD)/quaver $(DESTDIR)$(BINDIR)/quaver
	ln -sf quaver $(DESTDIR)$(BINDIR)/quaverd
	ln -sf quaver $(DESTDIR)$(BINDIR)/quaver-snapcast-plugin
	# Debug info is most of a static release binary's size; the symbols stay for backtraces.
	strip --strip-debug $(DESTDIR)$(BINDIR)/quaver
	install -d $(DESTDIR)$(SYSTEMD_USER_DIR) $(DESTDIR)$(DATADIR)/dbus-1/services $(DESTDIR)$(DATADIR)/applications
	install -Dm755 $(SWIFT_BACKTRACER) $(DESTDIR)$(LIBEXECDIR)/swift-backtrace
	install -Dm644 $(BUILD)/libquaver-taglib.so $(DESTDIR)$(LIBDIR)/libquaver-taglib.so
	sed -e 's|^ExecStart=.*|ExecStart=$(BINDIR)/quaverd|' \
		-e 's|swift-backtrace=[^,]*$$|swift-backtrace=$(LIBEXECDIR)/swift-backtrace|' systemd/quaverd.service \
		> $(DESTDIR)$(SYSTEMD_USER_DIR)/quaverd.service
	sed 's|^Exec=.*|Exec=$(BINDIR)/quaverd|' dbus/org.mpris.MediaPlayer2.quaver.service \
		> $(DESTDIR)$(DATADIR)/dbus-1/services/org.mpris.MediaPlayer2.quaver.service
	sed 's|^Exec=quaver |Exec=$(BINDIR)/quaver |' dbus/quaver.desktop > $(DESTDIR)$(DATADIR)/applications/quaver.desktop
	sed 's|^Exec=quaver |Exec=$(BINDIR)/quaver |' dbus/org.quaver.Quaver.desktop \
		> $(DESTDIR)$(DATADIR)/applications/org.quaver.Quaver.desktop
	install -Dm644 dbus/org.quaver.Quaver.search-provider.ini \
		$(DESTDIR)$(DATADIR)/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini
	install -d $(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(ZSH_COMPLETIONS) \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	$(BUILD)/quaver --generate-completion-script bash > $(DESTDIR)$(DATADIR)/bash-completion/completions/quaver
	$(BUILD)/quaver --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETIONS)/_quaver
	$(BUILD)/quaver --generate-completion-script fish > $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/quaver.fish
	install -Dm644 man/quaver.1 $(DESTDIR)$(MANDIR)/man1/quaver.1
	install -Dm644 man/quaverd.1 $(DESTDIR)$(MANDIR)/man1/quaverd.1
	install -Dm644 man/quaver-snapcast-plugin.1 $(DESTDIR)$(MANDIR)/man1/quaver-snapcast-plugin.1
	install -Dm644 config.example.toml $(DESTDIR)$(DOCDIR)/config.example.toml

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

/// For python3-dbus clients in tests: `error_of(f, *args)` calls `f` and returns `"<error name>: <message>"`,
/// or `"no error"`, so a test can assert the exact D-Bus error a bad call gets.
public let pythonErrorOf = """
def error_of(f, *args, **kw):
    try:
        f(*args, **kw)
        return 'no error'
    except dbus.exceptions.DBusException as e:
        return e.get_dbus_name() + ': ' + e.get_dbus_message()

"""

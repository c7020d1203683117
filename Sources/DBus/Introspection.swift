import PublicText

/// `org.freedesktop.DBus.Introspectable` XML, derived from interface descriptions.
enum Introspection {
    static func xml(for object: ExportedObject?, children: [String]) -> String {
        var lines = [
            "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"",
            " \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">",
            "<node>",
        ]
        if let object {
            lines += standardInterfaces
            for interface in object.interfaces { lines += describe(interface) }
        } else {
            lines += standardInterfaces.prefix(3)  // Introspectable alone on a node that only has children
        }
        lines += children.map { "  <node name=\"\(escape($0))\"/>" }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ interface: InterfaceDescription) -> [String] {
        var lines = ["  <interface name=\"\(interface.name)\">"]
        for method in interface.methods {
            lines.append("    <method name=\"\(method.name)\">")
            lines += method.inputs.map { argument($0, direction: "in") }
            lines += method.outputs.map { argument($0, direction: "out") }
            lines.append("    </method>")
        }
        for signal in interface.signals {
            lines.append("    <signal name=\"\(signal.name)\">")
            lines += signal.arguments.map { argument($0, direction: nil) }
            lines.append("    </signal>")
        }
        for property in interface.properties {
            lines.append("    <property name=\"\(property.name)\" type=\"\(property.type)\" "
                + "access=\"\(property.access.rawValue)\"/>")
        }
        lines.append("  </interface>")
        return lines
    }

    private static func argument(_ argument: InterfaceDescription.Argument, direction: String?) -> String {
        let directionAttribute = direction.map { " direction=\"\($0)\"" } ?? ""
        return "      <arg name=\"\(escape(argument.name))\" type=\"\(argument.type)\"\(directionAttribute)/>"
    }

    private static func escape(_ text: String) -> String { PublicText.escapingMarkup(text) }

    private static let standardInterfaces = [
        "  <interface name=\"org.freedesktop.DBus.Introspectable\">",
        "    <method name=\"Introspect\"><arg name=\"xml_data\" type=\"s\" direction=\"out\"/></method>",
        "  </interface>",
        "  <interface name=\"org.freedesktop.DBus.Peer\">",
        "    <method name=\"Ping\"/>",
        "    <method name=\"GetMachineId\"><arg name=\"machine_uuid\" type=\"s\" direction=\"out\"/></method>",
        "  </interface>",
        "  <interface name=\"org.freedesktop.DBus.Properties\">",
        "    <method name=\"Get\"><arg name=\"interface_name\" type=\"s\" direction=\"in\"/>"
            + "<arg name=\"property_name\" type=\"s\" direction=\"in\"/><arg name=\"value\" type=\"v\" direction=\"out\"/></method>",
        "    <method name=\"GetAll\"><arg name=\"interface_name\" type=\"s\" direction=\"in\"/>"
            + "<arg name=\"properties\" type=\"a{sv}\" direction=\"out\"/></method>",
        "    <method name=\"Set\"><arg name=\"interface_name\" type=\"s\" direction=\"in\"/>"
            + "<arg name=\"property_name\" type=\"s\" direction=\"in\"/><arg name=\"value\" type=\"v\" direction=\"in\"/></method>",
        "    <signal name=\"PropertiesChanged\"><arg name=\"interface_name\" type=\"s\"/>"
            + "<arg name=\"changed_properties\" type=\"a{sv}\"/><arg name=\"invalidated_properties\" type=\"as\"/></signal>",
        "  </interface>",
    ]
}

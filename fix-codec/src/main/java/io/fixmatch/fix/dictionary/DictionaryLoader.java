package io.fixmatch.fix.dictionary;

import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a QuickFIX-format data dictionary ({@code <fix>} with {@code <header>}, {@code <trailer>},
 * {@code <messages>}, {@code <components>}, {@code <fields>}) into a {@link FixDictionary}. Components are expanded
 * where they are used (their fields required only if the component is). Repeating groups are supported in message
 * bodies, one level deep (no group inside a group, no group in the header or trailer): the dictionaries read here
 * have none, and a dictionary that has one is refused rather than half understood. Runs once at start.
 */
final class DictionaryLoader {
    private final Map<String, Integer> numbers = new HashMap<>();
    private final Map<String, Element> components = new HashMap<>();
    private final List<int[]> groupMembers = new ArrayList<>();
    private final List<Long> groupRequiredMasks = new ArrayList<>();
    private FieldType[] types;
    private int maxTag;

    private DictionaryLoader() {
    }

    static FixDictionary load(InputStream xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(xml);
            return new DictionaryLoader().read(document.getDocumentElement());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalArgumentException("not a readable data dictionary: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FixDictionary read(Element root) {
        if (!root.getTagName().equals("fix")) {
            throw new IllegalArgumentException("the root element must be <fix>, not <" + root.getTagName() + ">");
        }
        String version = attribute(root, "type", "FIX") + "." + root.getAttribute("major") + "."
            + root.getAttribute("minor");
        Element fields = child(root, "fields");
        for (Element field : children(fields, "field")) {
            int number = Integer.parseInt(field.getAttribute("number"));
            if (number <= 0) {
                throw new IllegalArgumentException("field " + field.getAttribute("name") + ": number " + number);
            }
            if (numbers.put(field.getAttribute("name"), number) != null) {
                throw new IllegalArgumentException("field " + field.getAttribute("name") + " defined twice");
            }
            maxTag = Math.max(maxTag, number);
        }
        types = new FieldType[maxTag + 1];
        boolean[] multipleValues = new boolean[maxTag + 1];
        String[] names = new String[maxTag + 1];
        int[] enumFirst = new int[maxTag + 1];
        int[] enumCount = new int[maxTag + 1];
        List<byte[]> enumValues = new ArrayList<>();
        for (Element field : children(fields, "field")) {
            int number = numbers.get(field.getAttribute("name"));
            String typeName = field.getAttribute("type");
            FieldType type = FieldType.of(typeName);
            if (type == null) {
                throw new IllegalArgumentException("field " + field.getAttribute("name") + ": unknown type " + typeName);
            }
            types[number] = type;
            multipleValues[number] = typeName.startsWith("MULTIPLE");
            names[number] = field.getAttribute("name");
            enumFirst[number] = enumValues.size();
            for (Element value : children(field, "value")) {
                enumValues.add(value.getAttribute("enum").getBytes(StandardCharsets.ISO_8859_1));
            }
            enumCount[number] = enumValues.size() - enumFirst[number];
        }
        for (Element component : children(optionalChild(root, "components"), "component")) {
            components.put(component.getAttribute("name"), component);
        }

        boolean[] header = new boolean[maxTag + 1];
        List<Integer> headerRequired = new ArrayList<>();
        sectionFields(child(root, "header"), true, header, headerRequired);
        boolean[] trailer = new boolean[maxTag + 1];
        List<Integer> trailerRequired = new ArrayList<>();
        sectionFields(child(root, "trailer"), true, trailer, trailerRequired);

        boolean[] fixMsgTypes = new boolean[1 << 16];
        Integer msgTypeField = numbers.get("MsgType");
        if (msgTypeField != null && msgTypeField == FixTags.MSG_TYPE) {
            for (int v = enumFirst[msgTypeField]; v < enumFirst[msgTypeField] + enumCount[msgTypeField]; v++) {
                markMsgType(fixMsgTypes, enumValues.get(v));
            }
        }
        short[] messageIndex = new short[1 << 16];
        Arrays.fill(messageIndex, (short) FixDictionary.NO_MESSAGE);
        List<int[]> bodyRoles = new ArrayList<>();
        List<int[]> bodyRequired = new ArrayList<>();
        for (Element message : children(child(root, "messages"), "message")) {
            byte[] type = message.getAttribute("msgtype").getBytes(StandardCharsets.ISO_8859_1);
            int msgType = markMsgType(fixMsgTypes, type);
            if (messageIndex[msgType] != FixDictionary.NO_MESSAGE) {
                throw new IllegalArgumentException("message type " + message.getAttribute("msgtype") + " twice");
            }
            messageIndex[msgType] = (short) bodyRoles.size();
            int[] roles = new int[maxTag + 1];
            List<Integer> required = new ArrayList<>();
            bodyFields(message, true, roles, required, message.getAttribute("name"));
            bodyRoles.add(roles);
            bodyRequired.add(toArray(required));
        }
        long[] masks = new long[groupRequiredMasks.size()];
        for (int i = 0; i < masks.length; i++) {
            masks[i] = groupRequiredMasks.get(i);
        }
        return new FixDictionary(version, maxTag, types, multipleValues, names, enumFirst, enumCount,
            enumValues.toArray(new byte[0][]), header, trailer, toArray(headerRequired), toArray(trailerRequired),
            fixMsgTypes, messageIndex, bodyRoles.toArray(new int[0][]), bodyRequired.toArray(new int[0][]),
            groupMembers.toArray(new int[0][]), masks);
    }

    /** Header or trailer: fields and components of fields. */
    private void sectionFields(Element section, boolean required, boolean[] members, List<Integer> requiredTags) {
        for (Element item : elements(section)) {
            boolean itemRequired = required && isRequired(item);
            switch (item.getTagName()) {
                case "field" -> {
                    int tag = number(item);
                    members[tag] = true;
                    if (itemRequired) {
                        requiredTags.add(tag);
                    }
                }
                case "component" -> sectionFields(component(item), itemRequired, members, requiredTags);
                case "group" -> throw new IllegalArgumentException("group " + item.getAttribute("name")
                    + " in the " + section.getTagName() + ": not supported");
                default -> throw new IllegalArgumentException("unexpected <" + item.getTagName() + ">");
            }
        }
    }

    /** A message body (or a component in it): fields, groups and components. */
    private void bodyFields(Element container, boolean required, int[] roles, List<Integer> requiredTags,
                            String message) {
        for (Element item : elements(container)) {
            boolean itemRequired = required && isRequired(item);
            switch (item.getTagName()) {
                case "field" -> {
                    int tag = number(item);
                    roles[tag] = FixDictionary.PLAIN_FIELD;
                    if (itemRequired) {
                        requiredTags.add(tag);
                    }
                }
                case "group" -> {
                    int countTag = number(item);
                    List<Integer> members = new ArrayList<>();
                    long[] requiredMask = {0};
                    groupFields(item, true, members, requiredMask, message);
                    if (members.isEmpty() || members.size() > 64) {
                        throw new IllegalArgumentException(message + ": group " + item.getAttribute("name")
                            + " must have 1 to 64 fields");
                    }
                    groupMembers.add(toArray(members));
                    groupRequiredMasks.add(requiredMask[0]);
                    roles[countTag] = groupMembers.size(); // 1 + the group's index
                    if (itemRequired) {
                        requiredTags.add(countTag);
                    }
                }
                case "component" -> bodyFields(component(item), itemRequired, roles, requiredTags, message);
                default -> throw new IllegalArgumentException(message + ": unexpected <" + item.getTagName() + ">");
            }
        }
    }

    private void groupFields(Element container, boolean required, List<Integer> members, long[] requiredMask,
                             String message) {
        for (Element item : elements(container)) {
            boolean itemRequired = required && isRequired(item);
            switch (item.getTagName()) {
                case "field" -> {
                    if (itemRequired && members.size() < 64) {
                        requiredMask[0] |= 1L << members.size();
                    }
                    members.add(number(item));
                }
                case "component" -> groupFields(component(item), itemRequired, members, requiredMask, message);
                case "group" -> throw new IllegalArgumentException(message + ": group " + item.getAttribute("name")
                    + " inside a group: not supported");
                default -> throw new IllegalArgumentException(message + ": unexpected <" + item.getTagName() + ">");
            }
        }
    }

    private static int markMsgType(boolean[] fixMsgTypes, byte[] value) {
        int msgType = MsgTypes.of(value, 0, value.length);
        if (msgType < 0 || msgType >= fixMsgTypes.length) {
            throw new IllegalArgumentException("MsgType " + new String(value, StandardCharsets.ISO_8859_1)
                + " is not of 1 or 2 ASCII characters");
        }
        fixMsgTypes[msgType] = true;
        return msgType;
    }

    private int number(Element reference) {
        Integer number = numbers.get(reference.getAttribute("name"));
        if (number == null) {
            throw new IllegalArgumentException("field " + reference.getAttribute("name") + " is not in <fields>");
        }
        return number;
    }

    private Element component(Element reference) {
        Element component = components.get(reference.getAttribute("name"));
        if (component == null) {
            throw new IllegalArgumentException("component " + reference.getAttribute("name") + " is not defined");
        }
        return component;
    }

    private static boolean isRequired(Element item) {
        return "Y".equals(item.getAttribute("required"));
    }

    private static String attribute(Element element, String name, String fallback) {
        String value = element.getAttribute(name);
        return value.isEmpty() ? fallback : value;
    }

    private static Element child(Element parent, String name) {
        Element child = optionalChild(parent, name);
        if (child == null) {
            throw new IllegalArgumentException("<" + name + "> missing");
        }
        return child;
    }

    private static Element optionalChild(Element parent, String name) {
        for (Element element : elements(parent)) {
            if (element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> matching = new ArrayList<>();
        if (parent != null) {
            for (Element element : elements(parent)) {
                if (element.getTagName().equals(name)) {
                    matching.add(element);
                }
            }
        }
        return matching;
    }

    private static List<Element> elements(Element parent) {
        List<Element> elements = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node.getNodeType() == Node.ELEMENT_NODE) {
                elements.add((Element) node);
            }
        }
        return elements;
    }

    private static int[] toArray(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }
}

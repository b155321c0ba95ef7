package io.fixmatch.fix.dictionary;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The QuickFIX-format reading: components, required flags through them, group members, and what is refused. */
class DictionaryLoaderTest {
    private static final String FIELDS = """
        <fields>
          <field number="8" name="BeginString" type="STRING"/>
          <field number="9" name="BodyLength" type="LENGTH"/>
          <field number="10" name="CheckSum" type="STRING"/>
          <field number="35" name="MsgType" type="STRING">
            <value enum="0" description="HEARTBEAT"/><value enum="X" description="OTHER"/>
          </field>
          <field number="55" name="Symbol" type="STRING"/>
          <field number="65" name="SymbolSfx" type="STRING"/>
          <field number="146" name="NoRelatedSym" type="NUMINGROUP"/>
          <field number="107" name="SecurityDesc" type="STRING"/>
          <field number="18" name="ExecInst" type="MULTIPLEVALUESTRING">
            <value enum="1" description="A"/><value enum="2" description="B"/>
          </field>
        </fields>""";

    private static FixDictionary load(String messages, String components) {
        String xml = "<fix major=\"4\" minor=\"4\"><header><field name=\"BeginString\" required=\"Y\"/>"
            + "<field name=\"BodyLength\" required=\"Y\"/><field name=\"MsgType\" required=\"Y\"/></header>"
            + "<trailer><field name=\"CheckSum\" required=\"Y\"/></trailer><messages>" + messages + "</messages>"
            + "<components>" + components + "</components>" + FIELDS + "</fix>";
        return FixDictionary.load(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void componentsAreExpandedAndRequiredOnlyWhenTheComponentIs() {
        FixDictionary dictionary = load("""
            <message name="Heartbeat" msgtype="0" msgcat="admin">
              <component name="Instrument" required="Y"/>
              <component name="Optional" required="N"/>
              <field name="ExecInst" required="N"/>
            </message>""", """
            <component name="Instrument"><field name="Symbol" required="Y"/></component>
            <component name="Optional"><field name="SymbolSfx" required="Y"/></component>""");
        assertEquals("FIX.4.4", dictionary.version());
        assertTrue(dictionary.isBodyField('0', 55) && dictionary.isBodyField('0', 65));
        assertTrue(dictionary.isRequired('0', 55));
        assertFalse(dictionary.isRequired('0', 65), "required inside an optional component");
        assertTrue(dictionary.isValidMsgType('X') && !dictionary.isSupportedMsgType('X'));
        assertFalse(dictionary.isValidMsgType(MsgTypes.of(new byte[] {'Q'}, 0, 1)));
    }

    @Test
    void multipleValueFieldsTakeEachValueFromTheirEnumeration() {
        FixDictionary dictionary = load("<message name=\"Heartbeat\" msgtype=\"0\" msgcat=\"admin\"/>", "");
        assertTrue(dictionary.allows(18, bytes("1 2"), 0, 3));
        assertTrue(dictionary.allows(18, bytes("2"), 0, 1));
        assertFalse(dictionary.allows(18, bytes("1 3"), 0, 3));
        assertFalse(dictionary.allows(18, bytes("1  2"), 0, 4));
    }

    /** (Members that the parser takes as order fields, such as Symbol, may not repeat even in groups.) */
    @Test
    void requiredGroupMembersAreCheckedInEachEntry() {
        FixDictionary dictionary = load("""
            <message name="Heartbeat" msgtype="0" msgcat="admin">
              <group name="NoRelatedSym" required="N">
                <field name="SecurityDesc" required="Y"/><field name="SymbolSfx" required="Y"/>
              </group>
            </message>""", "");
        DictionaryValidator validator = new DictionaryValidator(dictionary);
        FixMessage message = new FixMessage();
        byte[] ok = bytes("8=FIX.4.4\u00019=1\u000135=0\u0001146=2\u0001107=A\u000165=a\u0001107=B\u000165=b\u000110=0\u0001");
        assertEquals(DictionaryValidator.VALID, validator.parseAndValidate(ok, 0, ok.length, message));
        byte[] missing = bytes("8=FIX.4.4\u00019=1\u000135=0\u0001146=2\u0001107=A\u0001107=B\u000165=b\u000110=0\u0001");
        assertEquals(SessionRejectReasons.REQUIRED_TAG_MISSING,
            validator.parseAndValidate(missing, 0, missing.length, message));
        assertEquals(65, validator.refTagId());
    }

    @Test
    void whatIsNotUnderstoodIsRefusedAtLoad() {
        assertThrows(IllegalArgumentException.class, () -> load("""
            <message name="Heartbeat" msgtype="0" msgcat="admin">
              <group name="NoRelatedSym" required="N"><group name="NoRelatedSym" required="N">
                <field name="Symbol" required="Y"/></group></group>
            </message>""", ""), "nested group");
        assertThrows(IllegalArgumentException.class, () -> load(
            "<message name=\"Heartbeat\" msgtype=\"0\" msgcat=\"admin\"><field name=\"Nope\" required=\"N\"/></message>",
            ""), "unknown field");
        assertThrows(IllegalArgumentException.class, () -> load(
            "<message name=\"Heartbeat\" msgtype=\"0\" msgcat=\"admin\"><component name=\"Nope\"/></message>",
            ""), "unknown component");
        assertThrows(IllegalArgumentException.class, () -> FixDictionary.load(new ByteArrayInputStream(
            "<!DOCTYPE fix [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><fix>&x;</fix>".getBytes(StandardCharsets.UTF_8))),
            "no DOCTYPE (external entities)");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}

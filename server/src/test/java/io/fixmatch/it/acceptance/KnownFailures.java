package io.fixmatch.it.acceptance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The definitions that fail today, in priority order: the work order of the next phase. One entry each: the file, the
 * line of the first step that does not go as written (the suite checks that it still fails exactly there, and fails
 * as soon as it passes), what the definition expects against what fixmatch does, and what must change where.
 * {@link Kind#VENUE_RULE} entries are deliberate venue rules (docs/FIX.md), not defects.
 *
 * <p>Names used below: "the validator" is {@code io.fixmatch.fix.dictionary.DictionaryValidator} over the venue
 * dictionary ({@code VenueDictionary}, fix-gateway); "the standard text" is
 * {@code SessionRejectReasons.textBeforeTag(reason)} and the RefTagID ("Required tag missing, field=55"), as
 * QuickFIX/J writes it ({@code SessionRejectReasons.text(reason)} where no tag is concerned).
 *
 * <p>MinQty44.def passes today only because nothing validates the order: once the validator is wired in, MinQty(110)
 * gets Reject 373=2 (a venue rule, see {@link ValidatorPredictionTest}) and the definition moves here as a
 * {@link Kind#VENUE_RULE}. {@link ValidatorPredictionTest} shows the validator already gives the expected Reject for
 * every dictionary case below.
 */
final class KnownFailures {
    /**
     * TO_FIX: a defect, fails at the listed line; VENUE_RULE: deliberate (docs/FIX.md); RACY: a defect whose outcome
     * depends on timing (it passes when the wrong answer happens to arrive after the expected one): it may pass or
     * fail at the listed line, nowhere else.
     */
    enum Kind { TO_FIX, VENUE_RULE, RACY }

    record KnownFailure(String definition, int line, Kind kind, String expectedVsActual, String change) {
    }

    static final Map<String, KnownFailure> ALL = index(
        // --- 1. Validation of every incoming message against the venue dictionary (not wired in yet) ---------
        fix("14b_RequiredFieldMissing.def", 17,
            "Heartbeat without TargetCompID(56): expected Reject 373=1 371=56 372=0 'Required tag missing'; "
                + "actual Reject 373=9 371=49 'CompID problem', then Logout",
            "FixSession.onMessage: validate (required header fields first) before the CompID comparison"),
        fix("14a_BadField.def", 17,
            "Heartbeat with 999=HI: expected Reject 373=0 371=999 372=0 'Invalid tag number' (likewise 0=, -1=, "
                + "5000=); actual: nothing (the tag is ignored; our own Heartbeat comes next)",
            "FixSession.onMessage: run the validator on every message in sequence; Reject with its reason and "
                + "RefTagID, consuming the number; FixSession.reject: write 371 also for tag 0 and negative tags"),
        fix("14c_TagNotDefinedForMsgType.def", 17,
            "Heartbeat with 55=MSFT: expected Reject 373=2 371=55 372=0 'Tag not defined for this message type'; "
                + "actual: nothing",
            "FixSession.onMessage: the validator"),
        fix("14e_IncorrectEnumValue.def", 16,
            "NewOrderSingle with HandlInst 21=4: expected Reject 373=5 371=21 372=D 'Value is incorrect (out of "
                + "range) for this tag' (next: SecurityType 167=BOO); actual: ExecutionReport (order processed)",
            "FixSession.onMessage (or OrderEntry before reading the order): the validator"),
        fix("14g_HeaderBodyTrailerFieldsOutOfOrder.def", 17,
            "NewOrderSingle with the header fields after the body: expected Reject 373=14 371=34 372=D 'Tag "
                + "specified out of required order'; actual: ExecutionReport",
            "FixSession.onMessage: the validator"),
        fix("14i_RepeatingGroupCountNotEqual.def", 16,
            "NewOrderSingle with NoTradingSessions 386=3 and two 336: expected Reject 373=16 371=386 372=D "
                + "'Incorrect NumInGroup count for repeating group'; actual: ExecutionReport",
            "FixSession.onMessage: the validator"),
        fix("14j_OutOfOrderRepeatingGroupMembers.def", 16,
            "NewOrderSingle with NoAllocs 78=2 whose entries have 79 after 80: expected Reject 373=15 371=661 "
                + "372=D 'Out of order repeating group members'; actual: ExecutionReport",
            "FixSession.onMessage: the validator"),
        fix("2q_MsgTypeNotValid.def", 8,
            "MsgType '*': expected Reject 373=11 371=35 372=* 'Invalid MsgType'; actual BusinessMessageReject "
                + "380=3",
            "FixSession.dispatch: the validator's INVALID_MSG_TYPE (not a FIX 4.4 MsgType) before the "
                + "application; only valid but unsupported types go to OrderEntry.businessReject"),
        fix("RejectResentMessage.def", 15,
            "resent NewOrderSingle (filling a gap) with ExpireTime 126=20040415: expected Reject 373=6 371=126 "
                + "372=D 'Incorrect data format for value'; actual: ExecutionReport",
            "FixSession.onMessage: the validator (formats are checked before 'not defined for this message type')"),
        racy("19a_PossResendMessageThatHAsAlreadyBeenSent.def", 28,
            "NewOrderSingle resent with PossResend 97=Y and the ClOrdID of an order already seen on the session: "
                + "expected it ignored (Logout 34=3 next); actual: a second ExecutionReport, before the Logout (34=3) "
                + "when the order and the Logout arrive in different reads, else after it (then the run passes)",
            "OrderEntry: an order with PossResend=Y whose ClOrdID the session already sent is not entered again "
                + "(the ClOrdIDs seen per session, journaled so the check survives a restart: issue 14's duplicate "
                + "recognition)"),
        // --- 2. Sequence numbers -------------------------------------------------------------------------------
        fix("11a_NewSeqNoGreater.def", 10,
            "SequenceReset-Reset with MsgSeqNum 0 and NewSeqNo 25: expected it applied (TestRequest 34=25 then "
                + "answered 35=0 112=HELLO); actual Logout 'MsgSeqNum(34) missing or invalid'",
            "FixSession.onMessage: handle SequenceReset without GapFillFlag=Y before checking MsgSeqNum"),
        fix("11b_NewSeqNoEqual.def", 10,
            "SequenceReset-Reset with MsgSeqNum 0 and NewSeqNo 2 (= expected): expected accepted (TestRequest "
                + "34=2 answered); actual Logout 'MsgSeqNum(34) missing or invalid'",
            "FixSession.onMessage: as 11a"),
        fix("11c_NewSeqNoLess.def", 9,
            "SequenceReset-Reset with MsgSeqNum 0 and NewSeqNo 1 (< expected 2): expected Reject 45=0 373=5 "
                + "371=36 372=4 'Value is incorrect (out of range) for this tag', number not consumed; actual "
                + "Logout 'MsgSeqNum(34) missing or invalid'",
            "FixSession.onMessage: as 11a; FixSession.reject: write RefSeqNum(45) even when it is 0"),
        fix("SessionReset.def", 23,
            "Logon 34=1 141=Y on a logged-on session (next expected 11): expected both numbers reset and Logon "
                + "34=1 141=Y; actual Logout 'MsgSeqNum too low, expecting 11 but received 1'",
            "FixSession.onMessage: a Logon with ResetSeqNumFlag=Y while logged on resets the store (before the "
                + "too-low check) and is answered with Logon 141=Y"),
        fix("10_MsgSeqNumGreater.def", 15,
            "GapFill at 34=10 (expected 2) -> ResendRequest 7=2 16=0; then TestRequest 34=20: expected nothing "
                + "more (a request to infinity is outstanding), then Logout 34=3 for the client's Logout 34=2; "
                + "actual a second ResendRequest 34=3 7=2 16=0",
            "FixSession.requestResend: no new ResendRequest while one with EndSeqNo=0 is outstanding"),
        fix("20_SimultaneousResendRequest.def", 31,
            "after ResendRequest 7=4 16=0, a too-high ResendRequest 34=8 is served (resend of 2..3) and the gap "
                + "filled with PossDup Heartbeats 4..6: expected Logout 34=5 for the client's Logout 34=7; actual "
                + "a second ResendRequest 34=5 7=4 16=0",
            "FixSession.requestResend: as 10_MsgSeqNumGreater"),
        fix("2m_BodyLengthValueNotCorrect.def", 18,
            "message 2 garbled (BodyLength too short), 3 arrives too high -> ResendRequest 7=2; the client resends "
                + "only 2: expected ExecutionReport 34=3 for 2 then 34=4 for the queued 3; actual only 34=3 (3 was "
                + "dropped)",
            "FixSession.onMessage: queue (bounded) messages received above the expected MsgSeqNum and process "
                + "them in order once the gap is filled"),
        fix("10_MsgSeqNumEqual.def", 14,
            "Logout with MsgSeqNum 3 (too low, expected 21): expected a plain Logout 34=3; actual Logout "
                + "'MsgSeqNum too low, expecting 21 but received 3'",
            "FixSession.onMessage: a Logout below the expected number is still a Logout (answer without Text)"),
        // --- 3. PossDup, Logon and garbled-input rules --------------------------------------------------------
        fix("2g_PossDupNoOrigSendingTime.def", 18,
            "PossDup NewOrderSingle 34=2 (already received) without OrigSendingTime: expected Reject 373=1 371=122 "
                + "372=D 'Required tag missing' without consuming a number (TestRequest 34=4 follows); actual: "
                + "ignored as a duplicate",
            "FixSession.onMessage: check OrigSendingTime of PossDupFlag=Y before the duplicate (too low) check"),
        fix("2f_PossDupOrigSendingTimeTooHigh.def", 18,
            "PossDup NewOrderSingle 34=2 with OrigSendingTime after SendingTime: expected Reject 373=10 371=122 "
                + "372=D 'SendingTime accuracy problem' then Logout 'SendingTime accuracy problem, field=122'; "
                + "actual: ignored as a duplicate",
            "FixSession.onMessage: OrigSendingTime <= SendingTime, checked before the duplicate check"),
        fix("1d_InvalidLogonBadSendingTime.def", 6,
            "Logon with SendingTime 20010101-00:00:00: expected Logout 34=1 'Invalid Logon message: SendingTime "
                + "accuracy problem, field=52' and disconnect; actual Logon accepted",
            "FixSession.onLogon: SendingTime within fix.sendingTimeToleranceMs, else refuse"),
        fix("1d_InvalidLogonLengthInvalid.def", 5,
            "first message a Logon with a wrong BodyLength (9=40): expected disconnect; actual skipped as garbled, "
                + "the connection stays open until fix.logonTimeoutMs",
            "FixConnectionHandler.channelRead: before Logon, GARBLED or BAD_CHECKSUM input closes the connection"),
        fix("2t_FirstThreeFieldsOutOfOrder.def", 15,
            "8|9|34=3|35=0 (MsgType not third): expected ignored as garbled, so the next TestRequest 34=3 is "
                + "answered 35=0 112=HELLO; actual Reject 373=14 consuming 3, so the TestRequest 34=3 is too low",
            "FixSession.onMalformed: MSG_TYPE_NOT_THIRD is garbled (FIX: the first three fields define a "
                + "message); MalformedInputRawTest's 'MsgType not the third field' row changes with it"),
        // --- 4. Header and Text of what we send ----------------------------------------------------------------
        fix("2k_CompIDDoesNotMatchProfile.def", 11,
            "NewOrderSingle with SenderCompID WT: expected Reject 45=2 372=D 373=9 'CompID problem' without "
                + "RefTagID; actual with 371=49",
            "FixSession.onMessage: CompID Reject without RefTagID"),
        fix("ReverseRoute.def", 11,
            "NewOrderSingle with OnBehalfOfCompID 115=JCD and 40=w: expected Reject 373=5 371=40 with "
                + "DeliverToCompID 128=JCD in the header (115/116/144 <-> 128/129/145) and Text 'Value is "
                + "incorrect (out of range) for this tag'; actual no 128, Text 'OrdType(40) must be 1 (market) or "
                + "2 (limit)'",
            "FixSession.reject/send: reverse the routing fields of the rejected message into the header; "
                + "OrderEntry.reject: the standard text"),
        fix("ReverseRouteWithEmptyRoutingTags.def", 11,
            "NewOrderSingle with 115= (empty): expected Reject 373=4 371=115 372=D 'Tag specified without a "
                + "value'; actual Text 'malformed message (tag without a value)'",
            "FixSession.onMalformed: the standard text"),
        fix("14d_TagSpecifiedWithoutValue.def", 17,
            "Heartbeat with 56= (empty): expected Reject 373=4 371=56 372=0 'Tag specified without a value'; "
                + "actual Text 'malformed message (tag without a value)'",
            "FixSession.onMalformed: the standard text"),
        fix("14h_RepeatedTag.def", 16,
            "NewOrderSingle with OrdType 40 twice: expected Reject 373=13 371=40 372=D 'Tag appears more than "
                + "once'; actual Text 'malformed message (tag appears more than once)'",
            "FixSession.onMalformed: the standard text"),
        fix("14f_IncorrectDataFormat.def", 15,
            "NewOrderSingle with 38=+200.00: expected Reject 373=6 371=38 372=D 'Incorrect data format for value, "
                + "field=38'; actual Text 'OrderQty(38) must be a whole number'",
            "OrderEntry.reject (and the validator's reason 6 for a QTY with a sign): the standard text"),
        fix("2o_SendingTimeValueOutOfRange.def", 10,
            "after Reject 373=10 for SendingTime 2 min off: expected Logout 'SendingTime accuracy problem, "
                + "field=52'; actual Logout 'SendingTime accuracy problem'",
            "FixSession.sendingTimeAcceptable: Logout text with ', field=52'"),
        fix("2i_BeginStringValueUnexpected.def", 9,
            "message with BeginString FIX.4.1 on a logged-on session: expected Logout 'Incorrect BeginString'; "
                + "actual Logout 'BeginString must be FIX.4.4'",
            "FixConnectionHandler.channelRead (WRONG_BEGIN_STRING): Text 'Incorrect BeginString'"),
        fix("2r_UnregisteredMsgType.def", 8,
            "ExecutionReport sent to the venue: expected BusinessMessageReject 380=3 372=8 'Unsupported Message "
                + "Type'; actual Text 'unsupported message type 8'",
            "OrderEntry.businessReject: Text 'Unsupported Message Type'"),
        fix("QFJ648_NegativeHeartBtInt.def", 6,
            "Logon with HeartBtInt -10: expected Logout 'HeartBtInt must not be negative'; actual 'HeartBtInt(108) "
                + "must be 0..3600'",
            "FixSession.onLogon: that text for a negative HeartBtInt"),
        fix("QFJ650_MissingMsgSeqNum.def", 9,
            "TestRequest without MsgSeqNum: expected Logout 'Received message without MsgSeqNum'; actual "
                + "'MsgSeqNum(34) missing or invalid'",
            "FixSession.onMessage: that text"),
        fix("6_SendTestRequest.def", 14,
            "after HeartBtInt x 1.2 of silence: expected TestRequest 112=TEST; actual 112=1 (a counter)",
            "FixSession.onTimer: TestReqID 'TEST' (QuickFIX/J's; any value works for a conformant client)"),
        // --- Deliberate venue rules (docs/FIX.md) ----------------------------------------------------------------
        rule("21_RepeatingGroupSpecifierWithValueOfZero.def", 17,
            "SecurityDefinition (35=d) with NoUnderlyings 454=0: expected it echoed; actual BusinessMessageReject "
                + "380=3: fixmatch does not accept SecurityDefinition",
            "none: venue rule (only D, F, G, H and session messages are accepted)"),
        rule("QFJ934_MissingDelimiterNestedRepeatingGroup.def", 14,
            "Email (35=C) with a group lacking its delimiter: expected Reject 373=15 371=864; actual "
                + "BusinessMessageReject 380=3: fixmatch does not accept Email",
            "none: venue rule (only D, F, G, H and session messages are accepted)"));

    private KnownFailures() {
    }

    private static KnownFailure fix(String definition, int line, String expectedVsActual, String change) {
        return new KnownFailure(definition, line, Kind.TO_FIX, expectedVsActual, change);
    }

    private static KnownFailure racy(String definition, int line, String expectedVsActual, String change) {
        return new KnownFailure(definition, line, Kind.RACY, expectedVsActual, change);
    }

    private static KnownFailure rule(String definition, int line, String expectedVsActual, String change) {
        return new KnownFailure(definition, line, Kind.VENUE_RULE, expectedVsActual, change);
    }

    private static Map<String, KnownFailure> index(KnownFailure... failures) {
        Map<String, KnownFailure> byDefinition = new LinkedHashMap<>();
        for (KnownFailure failure : failures) {
            if (byDefinition.put(failure.definition(), failure) != null) {
                throw new IllegalStateException("listed twice: " + failure.definition());
            }
        }
        return byDefinition;
    }
}

package io.fixmatch.server.admin;

/**
 * One session as {@code GET /sessions} shows it, read on its gateway thread.
 *
 * @param compId           the client's CompID (SenderCompID of its messages)
 * @param owner            the engine's owner id of its orders (the journal's numbering; the first session is 1)
 * @param gateway          the gateway thread that owns it
 * @param loggedOn         whether a connection is logged on
 * @param remoteAddress    the connection's address, or null
 * @param nextSenderSeqNum the MsgSeqNum of the next message the server sends
 * @param nextTargetSeqNum the MsgSeqNum the server expects next from the client
 * @param messagesReceived messages received since the server started
 * @param messagesSent     messages written to its connections since the server started
 * @param dropCopyFor      a drop-copy session: the CompIDs of the sessions whose reports it gets copies of; empty for
 *                         a trading session
 * @param dropCopies       the CompIDs of the drop-copy sessions that get copies of this session's reports (empty: none)
 * @param owningGateway    in a cluster, the id of the gateway that holds the session (its client is logged on there),
 *                         whichever gateway answers; null if none holds it, or in a standalone server
 */
record SessionInfo(String compId, int owner, String gateway, boolean loggedOn, String remoteAddress,
                   long nextSenderSeqNum, long nextTargetSeqNum, long messagesReceived, long messagesSent,
                   boolean cancelOnDisconnect, boolean latencyTrace, java.util.List<String> dropCopyFor,
                   java.util.List<String> dropCopies, Integer owningGateway) {
}

// A deployment or test run that sets KAFKA_TOPIC_PREFIX owns every topic and consumer group
// whose name starts with that prefix. Test harnesses and benchmark targets remove their
// namespace when they stop, so a shared development broker does not accumulate thousands of
// partitions (each one read back at every broker start).

import { Kafka, logLevel } from 'kafkajs';

/**
 * Deletes the consumer groups, then the topics, whose names start with `prefix`. Returns what
 * was removed. An empty prefix is refused: it would name the whole cluster.
 */
export async function deleteKafkaNamespace(
  brokers: string[],
  prefix: string,
): Promise<{ topics: string[]; groups: string[] }> {
  if (!prefix) throw new Error('deleteKafkaNamespace: refusing an empty prefix');
  const admin = new Kafka({ clientId: 'namespace-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const groups = (await admin.listGroups()).groups
      .map((group) => group.groupId)
      .filter((id) => id.startsWith(prefix));
    // A group still holding a member (a process killed with SIGKILL stays a member until its
    // session times out) cannot be deleted yet; its offsets are small and compacted away, so
    // that is not an error. The topics are what cost a broker start.
    let deleted: string[] = [];
    if (groups.length) {
      deleted = await admin
        .deleteGroups(groups)
        .then((results) => results.filter((r) => !r.error).map((r) => r.groupId))
        .catch((error: { groups?: { groupId: string }[] }) => {
          // KafkaJSDeleteGroupsError lists only the groups that failed.
          const failed = new Set((error.groups ?? []).map((r) => r.groupId));
          return groups.filter((id) => !failed.has(id));
        });
    }
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length) await admin.deleteTopics({ topics, timeout: 30_000 });
    return { topics, groups: deleted };
  } finally {
    await admin.disconnect();
  }
}

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { createdInvitationSchema, invitationSchema, memberSchema, meSchema } from "@/lib/accounts/contract";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { optimisticList } from "./optimistic";
import type { Role } from "@/lib/db/schema";

// Organizations for the console's client components: the signed-in user's organizations and
// projects (/api/me), new projects, members and their invitations. Reads and changes go
// through the REST API.

export type Me = z.infer<typeof meSchema>;
export type MemberJson = z.infer<typeof memberSchema>;
export type InvitationJson = z.infer<typeof invitationSchema>;
export type CreatedInvitationJson = z.infer<typeof createdInvitationSchema>;
type CreatedInvitation = CreatedInvitationJson;
type CreatedProject = { id: string; name: string; organizationId: string };

const membersPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/members`;
const invitationsPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/invitations`;

export function useMe(initialData?: Me) {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: ({ signal }) => apiRequest<Me>("/api/me", { signal }), initialData });
}

export function useCreateProject(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) =>
      apiRequest<CreatedProject>(`/api/organizations/${encodeURIComponent(organizationId)}/projects`, { method: "POST", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects() }),
  });
}

export function useMembers(organizationId: string, initialData?: MemberJson[]) {
  return useQuery({
    queryKey: queryKeys.organizationMembers(organizationId),
    queryFn: ({ signal }) => apiRequest<{ items: MemberJson[] }>(membersPath(organizationId), { signal }).then((page) => page.items),
    initialData,
  });
}

function useMembersChange<Input, Result>(organizationId: string, call: (input: Input) => Promise<Result>, optimistic?: (members: MemberJson[], input: Input) => MemberJson[]) {
  const client = useQueryClient();
  const key = queryKeys.organizationMembers(organizationId);
  return useMutation({
    mutationFn: call,
    ...optimisticList<MemberJson, Input>(client, key, optimistic ?? ((members) => members)),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: queryKeys.projects() })]),
  });
}

export function useInvitations(organizationId: string, initialData?: InvitationJson[]) {
  return useQuery({
    queryKey: queryKeys.organizationInvitations(organizationId),
    queryFn: ({ signal }) => apiRequest<{ items: InvitationJson[] }>(invitationsPath(organizationId), { signal }).then((page) => page.items),
    initialData,
  });
}

/** An invitation, listed as pending until the person accepts it. */
export function useInviteMember(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role; projectId?: string }) => apiRequest<CreatedInvitation>(membersPath(organizationId), { method: "POST", json: input }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.organizationInvitations(organizationId) }),
  });
}

export function useRevokeInvitation(organizationId: string) {
  const client = useQueryClient();
  const key = queryKeys.organizationInvitations(organizationId);
  return useMutation({
    mutationFn: (invitationId: string) => apiRequest<void>(`${invitationsPath(organizationId)}/${encodeURIComponent(invitationId)}`, { method: "DELETE" }),
    ...optimisticList<InvitationJson, string>(client, key, (invitations, invitationId) => invitations.filter((invitation) => invitation.id !== invitationId)),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** A new accept link for an open invitation (mailed, or shown once without mail); the old link stops working. */
export function useResendInvitation(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => apiRequest<CreatedInvitation>(`${invitationsPath(organizationId)}/${encodeURIComponent(invitationId)}/resend`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.organizationInvitations(organizationId) }),
  });
}

export function useChangeMemberRole(organizationId: string) {
  return useMembersChange(
    organizationId,
    ({ membershipId, role }: { membershipId: string; role: Role }) =>
      apiRequest<MemberJson>(`${membersPath(organizationId)}/${encodeURIComponent(membershipId)}`, { method: "PATCH", json: { role } }),
    (members, { membershipId, role }) => members.map((member) => (member.id === membershipId ? { ...member, role } : member)),
  );
}

export function useRemoveMember(organizationId: string) {
  return useMembersChange(
    organizationId,
    ({ membershipId }: { membershipId: string }) =>
      apiRequest<void>(`${membersPath(organizationId)}/${encodeURIComponent(membershipId)}`, { method: "DELETE" }),
    (members, { membershipId }) => members.filter((member) => member.id !== membershipId),
  );
}

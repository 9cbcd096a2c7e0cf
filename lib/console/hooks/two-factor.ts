import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { z } from "zod";
import type { confirmedTwoFactorSchema, organizationTwoFactorSchema, twoFactorEnrolmentSchema } from "@/lib/accounts/two-factor-contract";
import { apiRequest } from "@/lib/console/api-client";

// The signed-in user's two-factor authentication (/api/me/two-factor…) and an organization's
// requirement of it. The page's state comes from the server: each change refreshes it.

type Enrolment = z.infer<typeof twoFactorEnrolmentSchema>;
type Confirmed = z.infer<typeof confirmedTwoFactorSchema>;
type OrganizationTwoFactor = z.infer<typeof organizationTwoFactorSchema>;

export function useStartTwoFactorEnrolment() {
  return useMutation({ mutationFn: () => apiRequest<Enrolment>("/api/me/two-factor/enrolment", { method: "POST" }) });
}

export function useConfirmTwoFactor() {
  return useMutation({ mutationFn: (code: string) => apiRequest<Confirmed>("/api/me/two-factor/confirm", { method: "POST", json: { code } }) });
}

export function useDisableTwoFactor() {
  const router = useRouter();
  return useMutation({
    mutationFn: (proof: { code: string } | { password: string }) => apiRequest<{ enabled: false }>("/api/me/two-factor/disable", { method: "POST", json: proof }),
    onSuccess: () => router.refresh(),
  });
}

export function useSetOrganizationTwoFactor(organizationId: string) {
  return useMutation({
    mutationFn: (required: boolean) =>
      apiRequest<OrganizationTwoFactor>(`/api/organizations/${encodeURIComponent(organizationId)}/two-factor`, { method: "PUT", json: { required } }),
  });
}
